package embed

import (
	"encoding/json"
	"fmt"
	"os"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// WordPiece is a BERT tokenizer read from a tokenizer.json file (the
// format of the Hugging Face tokenizers library): the BERT normalizer
// (control characters dropped, Chinese characters split, lowercasing and
// accent stripping when configured), the BERT pre-tokenizer (whitespace,
// and each punctuation character on its own), then WordPiece: each word
// becomes the longest vocabulary prefix, then the longest "##"-prefixed
// continuations, or [UNK] when it cannot be split.
type WordPiece struct {
	vocab        map[string]int64
	prefix       string
	maxChars     int
	lowercase    bool
	stripAccents bool
	unk          int64
	cls, sep     int64
}

type tokenizerFile struct {
	Normalizer *struct {
		Type         string `json:"type"`
		Lowercase    *bool  `json:"lowercase"`
		StripAccents *bool  `json:"strip_accents"`
	} `json:"normalizer"`
	PreTokenizer *struct {
		Type string `json:"type"`
	} `json:"pre_tokenizer"`
	Model struct {
		Type                    string           `json:"type"`
		UnkToken                string           `json:"unk_token"`
		ContinuingSubwordPrefix *string          `json:"continuing_subword_prefix"`
		MaxInputCharsPerWord    int              `json:"max_input_chars_per_word"`
		Vocab                   map[string]int64 `json:"vocab"`
	} `json:"model"`
}

// LoadWordPiece reads a tokenizer.json whose model is WordPiece.
func LoadWordPiece(path string) (*WordPiece, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: %w", err)
	}
	var f tokenizerFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("tokenizer %s: not a tokenizer.json: %w", path, err)
	}
	if f.Model.Type != "WordPiece" {
		return nil, fmt.Errorf("tokenizer %s: model %q, only WordPiece (BERT-style models) is supported", path, f.Model.Type)
	}
	if f.PreTokenizer != nil && f.PreTokenizer.Type != "BertPreTokenizer" && f.PreTokenizer.Type != "Whitespace" {
		return nil, fmt.Errorf("tokenizer %s: pre-tokenizer %q, only BertPreTokenizer is supported", path, f.PreTokenizer.Type)
	}
	w := &WordPiece{vocab: f.Model.Vocab, prefix: "##", maxChars: f.Model.MaxInputCharsPerWord}
	if f.Model.ContinuingSubwordPrefix != nil {
		w.prefix = *f.Model.ContinuingSubwordPrefix
	}
	if w.maxChars <= 0 {
		w.maxChars = 100
	}
	if n := f.Normalizer; n != nil && n.Type == "BertNormalizer" {
		w.lowercase = n.Lowercase == nil || *n.Lowercase
		w.stripAccents = w.lowercase
		if n.StripAccents != nil {
			w.stripAccents = *n.StripAccents
		}
	}
	var ok [3]bool
	w.unk, ok[0] = w.vocab[f.Model.UnkToken]
	w.cls, ok[1] = w.vocab["[CLS]"]
	w.sep, ok[2] = w.vocab["[SEP]"]
	if !ok[0] || !ok[1] || !ok[2] {
		return nil, fmt.Errorf("tokenizer %s: the vocabulary lacks %q, [CLS] or [SEP]", path, f.Model.UnkToken)
	}
	return w, nil
}

// Encode returns the token ids of text between [CLS] and [SEP], at most
// maxLen in all (the text is cut).
func (w *WordPiece) Encode(text string, maxLen int) []int64 {
	ids := []int64{w.cls}
	for _, word := range w.words(text) {
		for _, id := range w.pieces(word) {
			if len(ids) >= maxLen-1 {
				return append(ids, w.sep)
			}
			ids = append(ids, id)
		}
	}
	return append(ids, w.sep)
}

// words normalises text and splits it into words and punctuation.
func (w *WordPiece) words(text string) []string {
	if w.stripAccents {
		text = norm.NFD.String(text)
	}
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	for _, r := range text {
		switch {
		case r == 0 || r == 0xfffd || (unicode.IsControl(r) && !unicode.IsSpace(r)):
			continue
		case w.stripAccents && unicode.Is(unicode.Mn, r):
			continue
		case unicode.IsSpace(r):
			flush()
		case isBertPunct(r) || isCJK(r):
			flush()
			out = append(out, string(r))
		default:
			if w.lowercase {
				r = unicode.ToLower(r)
			}
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

// pieces splits one word greedily into the longest vocabulary pieces.
func (w *WordPiece) pieces(word string) []int64 {
	rs := []rune(word)
	if len(rs) > w.maxChars {
		return []int64{w.unk}
	}
	var out []int64
	for start := 0; start < len(rs); {
		end := len(rs)
		found := int64(-1)
		for ; end > start; end-- {
			piece := string(rs[start:end])
			if start > 0 {
				piece = w.prefix + piece
			}
			if id, ok := w.vocab[piece]; ok {
				found = id
				break
			}
		}
		if found < 0 {
			return []int64{w.unk}
		}
		out = append(out, found)
		start = end
	}
	return out
}

// isBertPunct is BERT's punctuation: ASCII symbols and Unicode P*.
func isBertPunct(r rune) bool {
	if (r >= 33 && r <= 47) || (r >= 58 && r <= 64) || (r >= 91 && r <= 96) || (r >= 123 && r <= 126) {
		return true
	}
	return unicode.IsPunct(r)
}

// isCJK reports the CJK ideographs BERT splits one by one.
func isCJK(r rune) bool {
	return (r >= 0x4E00 && r <= 0x9FFF) || (r >= 0x3400 && r <= 0x4DBF) || (r >= 0x20000 && r <= 0x2A6DF) ||
		(r >= 0x2A700 && r <= 0x2B73F) || (r >= 0x2B740 && r <= 0x2B81F) || (r >= 0x2B820 && r <= 0x2CEAF) ||
		(r >= 0xF900 && r <= 0xFAFF) || (r >= 0x2F800 && r <= 0x2FA1F)
}
