package php_test

import (
	"testing"

	"gitnexus.dev/gitnexus/internal/lang/langtest"
	"gitnexus.dev/gitnexus/internal/lang/php"
)

func FuzzExtract(f *testing.F) {
	langtest.FuzzExtract(f, php.Language, ".php",
		"<?php\nnamespace A\\B;\nuse C\\{D, E as F};\nuse function G\\h;\nclass K extends D implements F { use T; public function __construct(private ?D $d) { parent::__construct(); } }\n",
		"<html><?php function f(int $x): static { $y = new self(); $y?->g()->h(); $a[0]->b(); (clone $y)->c::$d; \\A\\k(); define('Z', 1); require __DIR__ . '/x.php'; } ?></html>\n")
}
