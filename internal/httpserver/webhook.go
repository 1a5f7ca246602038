package httpserver

import (
	"errors"
	"fmt"
	"io"
	"net/http"
)

// WebhookReceiver handles push deliveries from GitHub and GitLab
// (internal/webhook): it checks their signature itself, so the route needs
// no bearer token.
type WebhookReceiver interface {
	Handle(h http.Header, body []byte) (status int, answer any)
}

// maxWebhookBytes bounds a delivery: GitHub caps its payloads at 25 MB.
const maxWebhookBytes = 25 << 20

// webhookPath is the one route that authenticates by signature.
const webhookPath = "/api/v1/webhook"

// webhook answers POST /api/v1/webhook.
func (s *Server) webhook(w http.ResponseWriter, r *http.Request) {
	if s.opts.Webhook == nil {
		writeError(w, http.StatusNotFound, "the webhook is off: start gitnexus serve with --webhook-secret (or GITNEXUS_WEBHOOK_SECRET)")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhookBytes))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the delivery is larger than %d bytes", tooBig.Limit))
			return
		}
		writeError(w, http.StatusBadRequest, "read the delivery: "+err.Error())
		return
	}
	status, answer := s.opts.Webhook.Handle(r.Header, body)
	writeJSON(w, status, answer)
}
