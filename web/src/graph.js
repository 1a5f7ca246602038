// GraphCanvas draws a graph with sigma (WebGL) over graphology. Layout: a
// ring per distance from the centre, then a few ForceAtlas2 iterations,
// fewer as the graph grows (5,000 nodes get 8, which keeps the first draw
// of a big neighbourhood near 100 ms on a laptop). Labels are hidden when
// zoomed out on a big graph, so the text does not cover the picture.

import Graph from 'graphology';
import Sigma from 'sigma';
import forceAtlas2 from 'graphology-layout-forceatlas2';
import { h } from './dom.js';

const PALETTE = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#8cd17d', '#499894', '#d37295'];
const EDGE_COLORS = {
  CALLS: '#8a94a6', IMPORTS: '#c9a227', EXTENDS: '#b07aa1', IMPLEMENTS: '#59a14f',
  HAS_METHOD: '#76b7b2', HAS_PROPERTY: '#76b7b2', REFERENCES: '#e15759', DEFINES: '#bbbbbb',
  STEP_IN_PROCESS: '#f28e2b', LINK: '#8a94a6',
};

function hashString(str) {
  let x = 2166136261;
  for (let i = 0; i < str.length; i++) {
    x ^= str.charCodeAt(i);
    x = Math.imul(x, 16777619);
  }
  return x >>> 0;
}

export function colorFor(key) {
  if (key === undefined || key === null || key === '') return '#9aa5b1';
  return PALETTE[hashString(String(key)) % PALETTE.length];
}

export function webglAvailable() {
  try {
    const c = document.createElement('canvas');
    return !!(c.getContext('webgl2') || c.getContext('webgl'));
  } catch {
    return false;
  }
}

// BIG is the node count above which edges are plain lines and are hidden
// while the camera moves.
const BIG = 1500;

function iterationsFor(n) {
  if (n <= 100) return 120;
  if (n <= 500) return 60;
  if (n <= 2000) return 20;
  return 8;
}

export class GraphCanvas {
  // container: an element with a size. options: {onClickNode(id), label: aria label}.
  constructor(container, options = {}) {
    this.container = container;
    this.options = options;
    this.graph = new Graph({ multi: true, type: 'directed', allowSelfLoops: true });
    this.sigma = null;
    this.center = null;
    this.hovered = null;
    this.labelsHidden = false;
    this.drawnOnce = false;
    // Tests and the benchmark find the canvas's graph from its element.
    container.graphCanvas = this;
  }

  // setData replaces the graph: nodes [{id, name, kind, community, size?, color?}], edges [{src, dst, type, weight?}].
  setData(nodes, edges, center) {
    this.graph.clear();
    this.center = center || null;
    this.addAll(nodes, edges);
    this.placeRings();
    this.layout(iterationsFor(this.graph.order));
    this.draw();
  }

  // merge adds nodes and edges around an existing node and lays them out again.
  merge(nodes, edges, around) {
    const origin = this.graph.hasNode(around) ? this.graph.getNodeAttributes(around) : { x: 0, y: 0 };
    const added = this.addAll(nodes, edges);
    added.forEach((id, i) => {
      const a = (2 * Math.PI * i) / Math.max(1, added.length);
      this.graph.mergeNodeAttributes(id, { x: origin.x + Math.cos(a) * 0.5, y: origin.y + Math.sin(a) * 0.5 });
    });
    if (added.length) this.layout(Math.min(30, iterationsFor(this.graph.order)));
    if (this.sigma) this.sigma.refresh();
    this.publish();
    return added.length;
  }

  addAll(nodes, edges) {
    const added = [];
    for (const n of nodes || []) {
      if (!n || !n.id) continue;
      const attrs = {
        label: n.name || n.label || n.id,
        kind: n.kind || '',
        filePath: n.filePath || '',
        size: n.size || (n.id === this.center ? 10 : 6),
        color: n.color || colorFor(n.community !== undefined ? n.community : n.kind),
        isTest: !!n.isTest,
      };
      if (this.graph.hasNode(n.id)) continue;
      this.graph.addNode(n.id, Object.assign({ x: 0, y: 0 }, attrs));
      added.push(n.id);
    }
    for (const e of edges || []) {
      if (!e || !this.graph.hasNode(e.src) || !this.graph.hasNode(e.dst)) continue;
      const key = `${e.type || 'LINK'}|${e.src}|${e.dst}`;
      if (this.graph.hasEdge(key)) continue;
      const type = e.type || 'LINK';
      this.graph.addEdgeWithKey(key, e.src, e.dst, {
        kind: type,
        color: EDGE_COLORS[type] || '#8a94a6',
        size: e.weight ? Math.min(6, 1 + Math.log2(1 + e.weight)) : 1,
        type: this.graph.order > BIG ? 'line' : 'arrow',
        weight: e.weight || 1,
      });
    }
    return added;
  }

  // placeRings puts the centre at the origin and each distance on its own ring.
  placeRings() {
    const g = this.graph;
    const depth = new Map();
    const start = this.center && g.hasNode(this.center) ? this.center : g.nodes()[0];
    if (start === undefined) return;
    depth.set(start, 0);
    const queue = [start];
    while (queue.length) {
      const v = queue.shift();
      const d = depth.get(v);
      g.forEachNeighbor(v, (u) => {
        if (!depth.has(u)) {
          depth.set(u, d + 1);
          queue.push(u);
        }
      });
    }
    const rings = new Map();
    let maxDepth = 0;
    g.forEachNode((v) => {
      const d = depth.has(v) ? depth.get(v) : -1;
      if (d > maxDepth) maxDepth = d;
      if (!rings.has(d)) rings.set(d, []);
      rings.get(d).push(v);
    });
    for (const [d, members] of rings) {
      const ring = d < 0 ? maxDepth + 1 : d;
      members.sort();
      members.forEach((v, i) => {
        const a = (2 * Math.PI * i) / members.length + ring * 0.7;
        const r = ring * 10 * Math.max(1, Math.sqrt(members.length) / 4);
        g.mergeNodeAttributes(v, { x: Math.cos(a) * r, y: Math.sin(a) * r });
      });
    }
  }

  layout(iterations) {
    const n = this.graph.order;
    if (n < 2 || this.graph.size === 0) return;
    const settings = forceAtlas2.inferSettings(this.graph);
    settings.barnesHutOptimize = n > 300;
    forceAtlas2.assign(this.graph, { iterations, settings, getEdgeWeight: null });
  }

  draw() {
    if (!this.sigma) {
      const big = this.graph.order > BIG;
      this.sigma = new Sigma(this.graph, this.container, {
        allowInvalidContainer: true,
        // A big graph is drawn without its edges and labels while the
        // camera moves: the nodes alone keep panning smooth.
        hideEdgesOnMove: big,
        hideLabelsOnMove: big,
        defaultEdgeType: 'arrow',
        renderEdgeLabels: false,
        // A small graph shows every label; a big one those of the bigger nodes.
        labelRenderedSizeThreshold: this.graph.order > 150 ? 6 : 0,
        labelDensity: 0.7,
        zIndex: true,
        nodeReducer: (node, data) => this.reduceNode(node, data),
        edgeReducer: (edge, data) => this.reduceEdge(edge, data),
      });
      // While the button is down the mouse pans: skip sigma's hover test,
      // which reads a pixel back from the GPU on every move and stalls
      // the frame (5,000 nodes on a software renderer: 8 fps with it).
      const captor = this.sigma.getMouseCaptor();
      const pick = this.sigma.getNodeAtPosition.bind(this.sigma);
      this.sigma.getNodeAtPosition = (pos) => (captor.isMouseDown ? null : pick(pos));
      if (big) this.panAsPicture(captor);
      this.sigma.on('clickNode', ({ node }) => {
        if (this.dragged) return; // the end of a pan, not a click
        if (this.options.onClickNode) this.options.onClickNode(node);
      });
      // Fading all but a hovered node's neighbours redraws every node:
      // only on graphs small enough for that to be instant.
      if (!big) {
        this.sigma.on('enterNode', ({ node }) => { this.hovered = node; this.sigma.refresh({ skipIndexation: true }); });
        this.sigma.on('leaveNode', () => { this.hovered = null; this.sigma.refresh({ skipIndexation: true }); });
      }
      const camera = this.sigma.getCamera();
      camera.on('updated', () => {
        this.container.dataset.camera = [camera.x, camera.y, camera.ratio].map((v) => v.toFixed(4)).join(',');
        const hide = this.graph.order > 150 && camera.ratio > 1.4;
        if (hide !== this.labelsHidden) {
          this.labelsHidden = hide;
          this.sigma.refresh({ skipIndexation: true });
        }
      });
      this.labelsHidden = this.graph.order > 150;
    } else {
      this.sigma.refresh();
    }
    this.publish();
    if (!this.drawnOnce) {
      this.drawnOnce = true;
      requestAnimationFrame(() => performance.mark('graph-drawn'));
    }
  }

  // panAsPicture pans a big graph by moving its drawn layers (a transform
  // the compositor applies without redrawing) while the mouse drags, and
  // moves the camera once when the button is released. A software WebGL
  // redraws 5,000 nodes at a few frames per second; the picture moves at
  // the display's rate. What lay outside the canvas shows after release.
  panAsPicture(captor) {
    let start = null;
    const layers = () => this.container.querySelectorAll('canvas');
    const move = (dx, dy) => {
      for (const c of layers()) c.style.transform = dx || dy ? `translate(${dx}px, ${dy}px)` : '';
    };
    captor.on('mousedown', (e) => {
      start = { x: e.x, y: e.y };
      this.dragged = false;
    });
    captor.on('mousemovebody', (e) => {
      if (!start || !captor.isMouseDown) return;
      e.preventSigmaDefault();
      const dx = e.x - start.x;
      const dy = e.y - start.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) this.dragged = true;
      move(dx, dy);
    });
    captor.on('mouseup', (e) => {
      if (!start) return;
      const from = this.sigma.viewportToFramedGraph(start);
      const to = this.sigma.viewportToFramedGraph({ x: e.x, y: e.y });
      start = null;
      move(0, 0);
      if (this.dragged) {
        const camera = this.sigma.getCamera();
        const st = camera.getState();
        camera.setState({ x: st.x + from.x - to.x, y: st.y + from.y - to.y });
      }
      setTimeout(() => { this.dragged = false; }, 0);
    });
  }

  reduceNode(node, data) {
    const out = Object.assign({}, data);
    const important = node === this.center || node === this.hovered || node === this.selected;
    if (this.labelsHidden && !important) out.label = null;
    if (important) {
      out.highlighted = true;
      out.zIndex = 1;
    }
    if (this.hovered && node !== this.hovered && !this.graph.areNeighbors(node, this.hovered)) {
      out.color = '#d5d9de';
      out.label = null;
    }
    return out;
  }

  reduceEdge(edge, data) {
    if (!this.hovered) return data;
    const [a, b] = this.graph.extremities(edge);
    if (a === this.hovered || b === this.hovered) return Object.assign({}, data, { size: (data.size || 1) * 2 });
    return Object.assign({}, data, { hidden: true });
  }

  select(node) {
    this.selected = node;
    if (this.sigma) this.sigma.refresh({ skipIndexation: true });
  }

  // publish writes the counts where tests and assistive text can read them.
  publish() {
    this.container.dataset.nodes = String(this.graph.order);
    this.container.dataset.edges = String(this.graph.size);
  }

  // viewportOf is where a node is drawn, in pixels from the canvas's corner.
  viewportOf(id) {
    if (!this.sigma || !this.graph.hasNode(id)) return null;
    const a = this.graph.getNodeAttributes(id);
    return this.sigma.graphToViewport({ x: a.x, y: a.y });
  }

  nodeAttributes(id) {
    return this.graph.hasNode(id) ? this.graph.getNodeAttributes(id) : null;
  }

  nodes() {
    return this.graph.mapNodes((id, a) => ({ id, name: a.label, kind: a.kind, filePath: a.filePath }));
  }

  destroy() {
    if (this.sigma) this.sigma.kill();
    this.sigma = null;
  }
}

// graphBox is the element a GraphCanvas draws in, with a fallback text when
// the browser has no WebGL.
export function graphBox(label, extraClass) {
  return h('div', { class: ['graph-canvas', extraClass], role: 'img', 'aria-label': label });
}
