package webhook

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Push is what a push event says, from either provider.
type Push struct {
	Provider string `json:"provider"` // github or gitlab
	Ref      string `json:"ref"`      // refs/heads/main
	Before   string `json:"before,omitempty"`
	After    string `json:"after,omitempty"`
	// Deleted: the push deleted the ref.
	Deleted bool `json:"deleted,omitempty"`
	// URLs are the repository's clone and web addresses; Name its
	// owner/name path (full_name, path_with_namespace).
	URLs []string `json:"urls"`
	Name string   `json:"name"`
}

// Branch is the pushed branch ("" when the ref is not a branch).
func (p Push) Branch() string {
	b, ok := strings.CutPrefix(p.Ref, "refs/heads/")
	if !ok {
		return ""
	}
	return b
}

const zeroHash = "0000000000000000000000000000000000000000"

// parseGitHub reads a GitHub push event.
func parseGitHub(body []byte) (Push, error) {
	var ev struct {
		Ref        string `json:"ref"`
		Before     string `json:"before"`
		After      string `json:"after"`
		Deleted    bool   `json:"deleted"`
		Repository struct {
			FullName string `json:"full_name"`
			CloneURL string `json:"clone_url"`
			SSHURL   string `json:"ssh_url"`
			GitURL   string `json:"git_url"`
			HTMLURL  string `json:"html_url"`
			URL      string `json:"url"`
		} `json:"repository"`
	}
	if err := json.Unmarshal(body, &ev); err != nil {
		return Push{}, fmt.Errorf("the push event is not JSON: %w", err)
	}
	r := ev.Repository
	p := Push{Provider: "github", Ref: ev.Ref, Before: ev.Before, After: ev.After, Deleted: ev.Deleted || ev.After == zeroHash,
		URLs: nonEmpty(r.CloneURL, r.SSHURL, r.GitURL, r.HTMLURL, r.URL), Name: r.FullName}
	return p, p.check()
}

// parseGitLab reads a GitLab push event.
func parseGitLab(body []byte) (Push, error) {
	var ev struct {
		Ref     string `json:"ref"`
		Before  string `json:"before"`
		After   string `json:"after"`
		Project struct {
			PathWithNamespace string `json:"path_with_namespace"`
			GitHTTPURL        string `json:"git_http_url"`
			GitSSHURL         string `json:"git_ssh_url"`
			WebURL            string `json:"web_url"`
		} `json:"project"`
		Repository struct {
			URL        string `json:"url"`
			GitHTTPURL string `json:"git_http_url"`
			GitSSHURL  string `json:"git_ssh_url"`
			Homepage   string `json:"homepage"`
		} `json:"repository"`
	}
	if err := json.Unmarshal(body, &ev); err != nil {
		return Push{}, fmt.Errorf("the push event is not JSON: %w", err)
	}
	pr, r := ev.Project, ev.Repository
	p := Push{Provider: "gitlab", Ref: ev.Ref, Before: ev.Before, After: ev.After, Deleted: ev.After == zeroHash,
		URLs: nonEmpty(pr.GitHTTPURL, pr.GitSSHURL, pr.WebURL, r.GitHTTPURL, r.GitSSHURL, r.URL, r.Homepage),
		Name: pr.PathWithNamespace}
	return p, p.check()
}

func (p Push) check() error {
	if p.Ref == "" {
		return fmt.Errorf("the push event has no ref")
	}
	if len(p.URLs) == 0 && p.Name == "" {
		return fmt.Errorf("the push event names no repository")
	}
	return nil
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}
