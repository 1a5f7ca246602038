// Package onnxtest makes a tiny BERT-shaped sentence encoder for tests of
// the onnx embedding provider: an ONNX model with fixed weights (word,
// token-type and position embeddings, a dense layer with tanh, the
// attention mask applied to the output) and its WordPiece tokenizer.json,
// written by Go code, with the same computation done in Go to check the
// runtime's answers against. Only tests import it.
package onnxtest

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
)

// Sizes of the tiny model.
const (
	Hidden    = 8
	MaxLength = 512 // position embeddings, as BERT
)

// Vocab is the tokenizer's vocabulary; a token's id is its index.
var Vocab = []string{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]",
	"the", "parse", "config", "file", "##s", "open", "data", "##base", "retry", "back", "##off",
	"auth", "##enti", "##cate", "user", "with", "a", ",", ".", "!", "(", ")", "cafe", "x"}

// WordEmbedding, TypeEmbedding, PositionEmbedding and Dense are the fixed
// weights, as functions of their indices.
func WordEmbedding(token, j int) float32 {
	return float32(0.5 * math.Sin(0.7*float64(token)+1.3*float64(j)))
}

// TypeEmbedding is the token-type embedding.
func TypeEmbedding(typ, j int) float32 { return float32(0.1 * math.Cos(float64(typ+j))) }

// PositionEmbedding is the position embedding.
func PositionEmbedding(pos, j int) float32 {
	return float32(0.05 * math.Sin(0.9*float64(pos)+float64(j)))
}

// Dense is the weight of the dense layer from input j to output k.
func Dense(j, k int) float32 {
	return float32(math.Cos(0.3*float64(j)-0.5*float64(k)) / math.Sqrt(Hidden))
}

// Write writes model.onnx and tokenizer.json into dir and returns their
// paths.
func Write(dir string) (modelPath, tokenizerPath string, err error) {
	modelPath = filepath.Join(dir, "model.onnx")
	tokenizerPath = filepath.Join(dir, "tokenizer.json")
	if err := os.WriteFile(modelPath, Model(), 0o644); err != nil {
		return "", "", err
	}
	tok, err := Tokenizer()
	if err != nil {
		return "", "", err
	}
	return modelPath, tokenizerPath, os.WriteFile(tokenizerPath, tok, 0o644)
}

func table(rows, cols int, f func(i, j int) float32) []float32 {
	out := make([]float32, 0, rows*cols)
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			out = append(out, f(i, j))
		}
	}
	return out
}

// Model is the ONNX model: last_hidden_state = tanh((word[input_ids] +
// type[token_type_ids] + position[0..seq)) × dense) × attention_mask.
func Model() []byte {
	v := int64(len(Vocab))
	inits := []message{
		floatTensor("word_embeddings", []int64{v, Hidden}, table(len(Vocab), Hidden, WordEmbedding)),
		floatTensor("token_type_embeddings", []int64{2, Hidden}, table(2, Hidden, TypeEmbedding)),
		floatTensor("position_embeddings", []int64{MaxLength, Hidden}, table(MaxLength, Hidden, PositionEmbedding)),
		floatTensor("dense", []int64{Hidden, Hidden}, table(Hidden, Hidden, Dense)),
		int64Tensor("one", nil, []int64{1}),
		int64Tensor("zero", nil, []int64{0}),
		int64Tensor("last_axis", []int64{1}, []int64{-1}),
	}
	nodes := []message{
		node("Gather", "words", []string{"word_embeddings", "input_ids"}, []string{"we"}, nil),
		node("Gather", "types", []string{"token_type_embeddings", "token_type_ids"}, []string{"te"}, nil),
		node("Shape", "shape", []string{"input_ids"}, []string{"shape"}, nil),
		node("Gather", "seq_len", []string{"shape", "one"}, []string{"seq_len"}, map[string]int64{"axis": 0}),
		node("Range", "positions", []string{"zero", "seq_len", "one"}, []string{"pos"}, nil),
		node("Gather", "position_lookup", []string{"position_embeddings", "pos"}, []string{"pe"}, nil),
		node("Add", "add_types", []string{"we", "te"}, []string{"x1"}, nil),
		node("Add", "add_positions", []string{"x1", "pe"}, []string{"x2"}, nil),
		node("MatMul", "dense_mul", []string{"x2", "dense"}, []string{"h"}, nil),
		node("Tanh", "activation", []string{"h"}, []string{"t"}, nil),
		node("Cast", "mask_float", []string{"attention_mask"}, []string{"mf"}, map[string]int64{"to": typeFloat}),
		node("Unsqueeze", "mask_expand", []string{"mf", "last_axis"}, []string{"mu"}, nil),
		node("Mul", "masked", []string{"t", "mu"}, []string{"last_hidden_state"}, nil),
	}
	inputs := []message{
		valueInfo("input_ids", typeInt64, "batch", "sequence"),
		valueInfo("attention_mask", typeInt64, "batch", "sequence"),
		valueInfo("token_type_ids", typeInt64, "batch", "sequence"),
	}
	outputs := []message{valueInfo("last_hidden_state", typeFloat, "batch", "sequence", Hidden)}
	return model("tiny-bert", nodes, inits, inputs, outputs)
}

// ModelWithoutMask is a model that takes input_ids only: not an encoder
// the provider can run.
func ModelWithoutMask() []byte {
	v := int64(len(Vocab))
	inits := []message{floatTensor("word_embeddings", []int64{v, Hidden}, table(len(Vocab), Hidden, WordEmbedding))}
	nodes := []message{node("Gather", "words", []string{"word_embeddings", "input_ids"}, []string{"last_hidden_state"}, nil)}
	return model("no-mask", nodes, inits, []message{valueInfo("input_ids", typeInt64, "batch", "sequence")},
		[]message{valueInfo("last_hidden_state", typeFloat, "batch", "sequence", Hidden)})
}

// Tokenizer is the tokenizer.json of the model, in the format of the
// Hugging Face tokenizers library: a BERT normalizer that lowercases, the
// BERT pre-tokenizer, WordPiece with "##" continuations, and [CLS] … [SEP]
// around each text.
func Tokenizer() ([]byte, error) {
	vocab := map[string]int{}
	for i, w := range Vocab {
		vocab[w] = i
	}
	return json.MarshalIndent(map[string]any{
		"version":       "1.0",
		"truncation":    nil,
		"padding":       nil,
		"normalizer":    map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": nil, "lowercase": true},
		"pre_tokenizer": map[string]any{"type": "BertPreTokenizer"},
		"post_processor": map[string]any{"type": "TemplateProcessing",
			"single":         []any{map[string]any{"SpecialToken": map[string]any{"id": "[CLS]", "type_id": 0}}, map[string]any{"Sequence": map[string]any{"id": "A", "type_id": 0}}, map[string]any{"SpecialToken": map[string]any{"id": "[SEP]", "type_id": 0}}},
			"special_tokens": map[string]any{"[CLS]": map[string]any{"id": "[CLS]", "ids": []int{2}, "tokens": []string{"[CLS]"}}, "[SEP]": map[string]any{"id": "[SEP]", "ids": []int{3}, "tokens": []string{"[SEP]"}}}},
		"model": map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
			"max_input_chars_per_word": 100, "vocab": vocab},
	}, "", "  ")
}

// Embed computes in Go what the model and the provider should: for each
// sequence of token ids (with [CLS] and [SEP]), the mean over its tokens of
// the last hidden state, L2-normalised.
func Embed(ids []int) []float32 {
	sum := make([]float64, Hidden)
	for p, id := range ids {
		var x [Hidden]float64
		for j := 0; j < Hidden; j++ {
			x[j] = float64(WordEmbedding(id, j)) + float64(TypeEmbedding(0, j)) + float64(PositionEmbedding(p, j))
		}
		for k := 0; k < Hidden; k++ {
			var h float64
			for j := 0; j < Hidden; j++ {
				h += x[j] * float64(Dense(j, k))
			}
			sum[k] += math.Tanh(h)
		}
	}
	var norm float64
	for k := range sum {
		sum[k] /= float64(len(ids))
		norm += sum[k] * sum[k]
	}
	out := make([]float32, Hidden)
	for k := range sum {
		out[k] = float32(sum[k] / math.Sqrt(norm))
	}
	return out
}
