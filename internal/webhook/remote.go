package webhook

import (
	"net/url"
	"path"
	"path/filepath"
	"strings"
)

// remoteKey reduces a remote address to what identifies the repository,
// so that the addresses of one repository compare equal: https, ssh and
// scp-like (git@host:owner/name.git) forms give host/owner/name, lower-case,
// without user, default port, .git or trailing slash; file:// URLs and
// local paths give the cleaned path.
func remoteKey(raw string) string {
	s := strings.TrimSpace(raw)
	if s == "" {
		return ""
	}
	if strings.HasPrefix(s, "/") {
		return "file:" + trimGit(filepath.Clean(s))
	}
	if !strings.Contains(s, "://") {
		// scp-like: [user@]host:path
		hostPart, p, ok := strings.Cut(s, ":")
		if !ok || strings.Contains(hostPart, "/") {
			return ""
		}
		if _, h, ok := strings.Cut(hostPart, "@"); ok {
			hostPart = h
		}
		return strings.ToLower(hostPart + "/" + trimGit(strings.Trim(p, "/")))
	}
	u, err := url.Parse(s)
	if err != nil {
		return ""
	}
	if u.Scheme == "file" {
		return "file:" + trimGit(filepath.Clean(u.Path))
	}
	host := strings.ToLower(u.Hostname())
	if port := u.Port(); port != "" && !defaultPort(u.Scheme, port) {
		host += ":" + port
	}
	p := trimGit(strings.Trim(path.Clean("/"+u.Path), "/"))
	return strings.ToLower(host + "/" + p)
}

func trimGit(p string) string {
	p = strings.TrimSuffix(p, "/")
	return strings.TrimSuffix(p, ".git")
}

func defaultPort(scheme, port string) bool {
	switch scheme {
	case "https":
		return port == "443"
	case "http":
		return port == "80"
	case "ssh", "git+ssh", "ssh+git":
		return port == "22"
	case "git":
		return port == "9418"
	}
	return false
}

// matchesName reports whether a remote key ends with the repository's
// owner/name path (the fallback when no address matches, e.g. an ssh host
// alias).
func matchesName(key, name string) bool {
	name = strings.ToLower(strings.Trim(name, "/"))
	if name == "" || strings.HasPrefix(key, "file:") {
		return false
	}
	return strings.HasSuffix(key, "/"+name)
}
