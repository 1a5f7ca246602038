package java

import (
	"regexp"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"gitnexus.dev/gitnexus/internal/lang"
)

// doc returns the first paragraph of the Javadoc comment (`/** ... */`)
// right above a declaration, with inline tags reduced to their text, HTML
// removed, and block tags (@param, @return, ...) dropped.
func (x *extraction) doc(n *ts.Node) string {
	texts := lang.CommentsBefore(n, x.src, func(c *ts.Node) bool {
		return c.Kind() == "block_comment" || c.Kind() == "line_comment"
	})
	for i := len(texts) - 1; i >= 0; i-- {
		if strings.HasPrefix(texts[i], "/**") {
			return javadocSummary(texts[i])
		}
	}
	return ""
}

var (
	inlineTag = regexp.MustCompile(`\{@(\w+)\s*([^{}]*)\}`)
	htmlTag   = regexp.MustCompile(`</?[a-zA-Z][^<>]*>`)
	paraTag   = regexp.MustCompile(`(?i)<p\s*/?>|</p>`)
)

// javadocSummary cleans one Javadoc comment and returns its first
// paragraph. A `<p>` starts a new paragraph, as a blank line does.
func javadocSummary(comment string) string {
	var lines []string
	for _, l := range lang.CleanComment([]string{comment}) {
		if strings.HasPrefix(l, "@") {
			break
		}
		lines = append(lines, l)
	}
	text := strings.Join(lines, "\n")
	text = paraTag.ReplaceAllString(text, "\n\n")
	text = inlineTag.ReplaceAllStringFunc(text, func(tag string) string {
		m := inlineTag.FindStringSubmatch(tag)
		body := strings.TrimSpace(m[2])
		switch m[1] {
		case "inheritDoc":
			return ""
		case "link", "linkplain", "see":
			// {@link Type#member label}: the label when there is one.
			if i := strings.IndexAny(body, " \t\n"); i >= 0 {
				return strings.TrimSpace(body[i+1:])
			}
			return strings.ReplaceAll(strings.TrimPrefix(body, "#"), "#", ".")
		}
		return body
	})
	text = htmlTag.ReplaceAllString(text, "")
	text = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&", "&nbsp;", " ", "&quot;", `"`).Replace(text)
	return lang.FirstParagraph(strings.Split(text, "\n"))
}
