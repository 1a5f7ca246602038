package embed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sync"

	ort "github.com/yalue/onnxruntime_go"
)

// ONNX runs a BERT-style sentence encoder (model.onnx with the inputs
// input_ids, attention_mask and optionally token_type_ids, and a first
// output of shape [batch, sequence, hidden], or [batch, hidden] for models
// that pool themselves) with ONNX Runtime, loaded from the shared library
// the configuration names. Token vectors are averaged over the attention
// mask (mean pooling) and the result L2-normalised.
type ONNX struct {
	session  *ort.DynamicAdvancedSession
	tok      *WordPiece
	inputs   []string // the model's input names, in the order given to the session
	dims     int
	pooled   bool // the output is [batch, hidden] already
	maxLen   int
	batch    int
	identity string
	mu       sync.Mutex // one run at a time: the session uses every core
}

// The runtime is loaded once per process.
var (
	ortMu      sync.Mutex
	ortLibrary string
)

// DefaultONNXRuntime is the library loaded when none is configured: the
// dynamic loader's search path.
const DefaultONNXRuntime = "libonnxruntime.so"

// initRuntime loads the ONNX Runtime library at path once.
func initRuntime(path string) error {
	ortMu.Lock()
	defer ortMu.Unlock()
	if path == "" {
		path = DefaultONNXRuntime
	}
	if ort.IsInitialized() {
		if path != ortLibrary {
			return fmt.Errorf("ONNX Runtime is already loaded from %s, cannot load %s: one process uses one library", ortLibrary, path)
		}
		return nil
	}
	ort.SetSharedLibraryPath(path)
	if err := ort.InitializeEnvironment(ort.WithLogLevelError()); err != nil {
		return fmt.Errorf("load ONNX Runtime from %s (set %s to the path of libonnxruntime.so): %w", path, EnvONNXRuntime, err)
	}
	ortLibrary = path
	return nil
}

// NewONNX loads the model and tokenizer cfg names.
func NewONNX(cfg Config) (*ONNX, error) {
	cfg = cfg.WithDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	tok, err := LoadWordPiece(cfg.ONNXTokenizer)
	if err != nil {
		return nil, err
	}
	sum, err := fileHash(cfg.ONNXModel, cfg.ONNXTokenizer)
	if err != nil {
		return nil, err
	}
	if err := initRuntime(cfg.ONNXRuntime); err != nil {
		return nil, err
	}
	ins, outs, err := ort.GetInputOutputInfo(cfg.ONNXModel)
	if err != nil {
		return nil, fmt.Errorf("onnx model %s: %w", cfg.ONNXModel, err)
	}
	o := &ONNX{tok: tok, maxLen: cfg.MaxTokens, batch: cfg.BatchSize}
	have := map[string]bool{}
	for _, in := range ins {
		have[in.Name] = true
	}
	for _, name := range []string{"input_ids", "attention_mask", "token_type_ids"} {
		if have[name] {
			o.inputs = append(o.inputs, name)
		} else if name != "token_type_ids" {
			return nil, fmt.Errorf("onnx model %s has no input %q: a BERT-style encoder takes input_ids and attention_mask", cfg.ONNXModel, name)
		}
	}
	if len(outs) == 0 {
		return nil, fmt.Errorf("onnx model %s has no output", cfg.ONNXModel)
	}
	out := outs[0]
	switch len(out.Dimensions) {
	case 3:
	case 2:
		o.pooled = true
	default:
		return nil, fmt.Errorf("onnx model %s: output %q has %d dimensions, want [batch, sequence, hidden] or [batch, hidden]",
			cfg.ONNXModel, out.Name, len(out.Dimensions))
	}
	if o.dims = int(out.Dimensions[len(out.Dimensions)-1]); o.dims <= 0 {
		return nil, fmt.Errorf("onnx model %s: output %q has no fixed hidden size", cfg.ONNXModel, out.Name)
	}
	opts, err := ort.NewSessionOptions()
	if err != nil {
		return nil, err
	}
	defer opts.Destroy()
	if err := opts.SetIntraOpNumThreads(runtime.GOMAXPROCS(0)); err != nil {
		return nil, err
	}
	o.session, err = ort.NewDynamicAdvancedSession(cfg.ONNXModel, o.inputs, []string{out.Name}, opts)
	if err != nil {
		return nil, fmt.Errorf("onnx model %s: %w", cfg.ONNXModel, err)
	}
	o.identity = fmt.Sprintf("onnx:%s/%d/%d", sum, o.dims, o.maxLen)
	return o, nil
}

// fileHash is the first 12 hex digits of the SHA-256 of the files' bytes.
func fileHash(paths ...string) (string, error) {
	h := sha256.New()
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return "", fmt.Errorf("onnx embedder: %w", err)
		}
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("onnx embedder: %w", err)
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// Identity is "onnx:<hash of model and tokenizer>/<dimensions>/<max tokens>".
func (o *ONNX) Identity() string { return o.identity }

// Dimensions is the model's hidden size.
func (o *ONNX) Dimensions() int { return o.dims }

// Close releases the session.
func (o *ONNX) Close() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.session == nil {
		return nil
	}
	err := o.session.Destroy()
	o.session = nil
	return err
}

// Embed runs the texts through the model BatchSize at a time.
func (o *ONNX) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	for from := 0; from < len(texts); from += o.batch {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		vecs, err := o.run(texts[from:min(from+o.batch, len(texts))])
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	return out, nil
}

// run embeds one batch: token ids padded to the longest text, the mask 1
// on real tokens, token types 0.
func (o *ONNX) run(texts []string) ([][]float32, error) {
	ids := make([][]int64, len(texts))
	seq := 0
	for i, t := range texts {
		ids[i] = o.tok.Encode(t, o.maxLen)
		seq = max(seq, len(ids[i]))
	}
	n := len(texts)
	inputIDs := make([]int64, n*seq)
	mask := make([]int64, n*seq)
	for i, row := range ids {
		copy(inputIDs[i*seq:], row)
		for j := range row {
			mask[i*seq+j] = 1
		}
	}
	shape := ort.NewShape(int64(n), int64(seq))
	var values []ort.Value
	defer func() {
		for _, v := range values {
			v.Destroy()
		}
	}()
	for _, name := range o.inputs {
		data := make([]int64, n*seq) // token_type_ids: all 0
		switch name {
		case "input_ids":
			data = inputIDs
		case "attention_mask":
			data = mask
		}
		t, err := ort.NewTensor(shape, data)
		if err != nil {
			return nil, fmt.Errorf("onnx embedder: %w", err)
		}
		values = append(values, t)
	}
	outputs := []ort.Value{nil}
	o.mu.Lock()
	if o.session == nil {
		o.mu.Unlock()
		return nil, fmt.Errorf("onnx embedder: closed")
	}
	err := o.session.Run(values, outputs)
	o.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("onnx embedder: run the model: %w", err)
	}
	defer outputs[0].Destroy()
	t, ok := outputs[0].(*ort.Tensor[float32])
	if !ok {
		return nil, fmt.Errorf("onnx embedder: the model's output is not a float32 tensor")
	}
	hidden := t.GetData()
	want := n * o.dims
	if !o.pooled {
		want *= seq
	}
	if len(hidden) != want {
		return nil, fmt.Errorf("onnx embedder: the model answered %d floats for %d texts of %d tokens", len(hidden), n, seq)
	}
	out := make([][]float32, n)
	for i := range out {
		v := make([]float32, o.dims)
		if o.pooled {
			copy(v, hidden[i*o.dims:(i+1)*o.dims])
		} else {
			meanPool(v, hidden[i*seq*o.dims:(i+1)*seq*o.dims], mask[i*seq:(i+1)*seq])
		}
		out[i] = Normalize(v)
	}
	return out, nil
}

// meanPool averages the token vectors whose mask is 1 into v.
func meanPool(v, tokens []float32, mask []int64) {
	dims := len(v)
	sum := make([]float64, dims)
	count := 0
	for p, m := range mask {
		if m == 0 {
			continue
		}
		count++
		for j := 0; j < dims; j++ {
			sum[j] += float64(tokens[p*dims+j])
		}
	}
	for j := range v {
		v[j] = float32(sum[j] / math.Max(1, float64(count)))
	}
}
