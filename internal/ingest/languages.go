package ingest

// The supported languages register themselves when imported.
import (
	_ "gitnexus.dev/gitnexus/internal/lang/c"
	_ "gitnexus.dev/gitnexus/internal/lang/cpp"
	_ "gitnexus.dev/gitnexus/internal/lang/csharp"
	_ "gitnexus.dev/gitnexus/internal/lang/golang"
	_ "gitnexus.dev/gitnexus/internal/lang/java"
	_ "gitnexus.dev/gitnexus/internal/lang/kotlin"
	_ "gitnexus.dev/gitnexus/internal/lang/php"
	_ "gitnexus.dev/gitnexus/internal/lang/python"
	_ "gitnexus.dev/gitnexus/internal/lang/ruby"
	_ "gitnexus.dev/gitnexus/internal/lang/rust"
	_ "gitnexus.dev/gitnexus/internal/lang/scala"
	_ "gitnexus.dev/gitnexus/internal/lang/typescript"
)
