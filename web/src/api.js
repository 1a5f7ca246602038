// The JSON API of gitnexus serve, same origin. The server authorizes the
// page with a cookie, so requests only need credentials: 'same-origin'.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function request(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json' } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, 'The server did not answer: ' + (err && err.message ? err.message : err));
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      throw new ApiError(res.status, `${method} ${path}: ${res.status}, not JSON`);
    }
  }
  if (!res.ok) {
    const msg = data && typeof data.error === 'string' ? data.error : `${method} ${path}: ${res.status}`;
    throw new ApiError(res.status, msg);
  }
  return data;
}

function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params || {})) {
    if (v === undefined || v === null || v === '') continue;
    q.set(k, String(v));
  }
  const str = q.toString();
  return str ? '?' + str : '';
}

// pathSegments encodes a path or id that holds slashes, keeping the slashes.
export function pathSegments(p) {
  return String(p).split('/').map(encodeURIComponent).join('/');
}

export const api = {
  repos: () => request('GET', '/api/v1/repos'),
  async tool(name, args, repo) {
    const body = Object.assign({}, args);
    if (repo) body.repo = repo;
    const data = await request('POST', '/api/v1/tools/' + encodeURIComponent(name), body);
    return data ? data.result : null;
  },
  get: (path, params) => request('GET', path + query(params)),
  post: (path, body) => request('POST', path, body),
  graph: (what, params) => request('GET', '/api/v1/graph/' + what + query(params)),
  cypher: (repo, q, limit) => request('POST', '/api/v1/cypher', { repo, query: q, limit }),
  commitFiles: (repo, hash) => request('GET', '/api/v1/commit/' + encodeURIComponent(hash) + '/files' + query({ repo })),
  functionSource: (repo, id, commit) =>
    request('GET', '/api/v1/function/' + pathSegments(id) + '/source' + query({ repo, commit_hash: commit })),
  fileCommits: (repo, path, params) =>
    request('GET', '/api/v1/file/' + pathSegments(path) + '/commits' + query(Object.assign({ repo }, params))),
};
