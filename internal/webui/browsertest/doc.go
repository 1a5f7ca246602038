// Package browsertest drives the web view of gitnexus serve in a real
// browser (Debian's Chromium, headless, through chromedp) against a real
// server over an indexed fixture repository. It holds tests only; see
// browser_test.go. Without Chromium the tests are skipped under -short
// and fail otherwise, saying how to install it.
package browsertest
