package cpp_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
)

func TestFixtures(t *testing.T) { langtest.RunDir(t, "testdata") }
