package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"strings"
)

// validGitHubSignature checks X-Hub-Signature-256: "sha256=" and the hex
// HMAC-SHA256 of the body keyed with the secret, compared in constant time.
func validGitHubSignature(body []byte, header, secret string) bool {
	hexSum, ok := strings.CutPrefix(header, "sha256=")
	if !ok || secret == "" {
		return false
	}
	got, err := hex.DecodeString(hexSum)
	if err != nil {
		return false
	}
	return hmac.Equal(got, GitHubSignature(body, secret))
}

// GitHubSignature is the HMAC-SHA256 of body keyed with secret, as GitHub
// signs a delivery (X-Hub-Signature-256 is "sha256=" and its hex).
func GitHubSignature(body []byte, secret string) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return m.Sum(nil)
}

// validGitLabToken checks X-Gitlab-Token, which GitLab sends as
// configured: the secret itself, compared in constant time.
func validGitLabToken(header, secret string) bool {
	if secret == "" {
		return false
	}
	return subtle.ConstantTimeCompare([]byte(header), []byte(secret)) == 1
}
