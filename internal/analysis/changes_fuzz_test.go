package analysis

import "testing"

// FuzzParseDiff: any text is read without a panic, and every range it
// reports is well formed.
func FuzzParseDiff(f *testing.F) {
	f.Add("diff --git a/x.go b/x.go\nindex 1..2 100644\n--- a/x.go\n+++ b/x.go\n@@ -3,2 +3,4 @@ func f() {\n-a\n+b\n@@ -10 +12,0 @@\n-c\n")
	f.Add("diff --git a/y.py b/y.py\ndeleted file mode 100644\n--- a/y.py\n+++ /dev/null\n@@ -1,5 +0,0 @@\n")
	f.Add("diff --git a/o b/n\nsimilarity index 90%\nrename from o\nrename to n\n@@ -0,0 +1 @@\n+x\n")
	f.Add("@@ -a,b +c,d @@\n@@ -1,-1 +1,99999999999999999999 @@\n")
	f.Fuzz(func(t *testing.T, text string) {
		for _, cf := range parseDiff([]byte(text)) {
			if cf.Path == "" {
				t.Fatalf("a file without a path from %q", text)
			}
			for _, r := range cf.Ranges {
				if r[0] > r[1] {
					t.Fatalf("range %v from %q", r, text)
				}
			}
		}
	})
}

func TestParseDiff(t *testing.T) {
	diff := `diff --git a/a.go b/a.go
index 1111111..2222222 100644
--- a/a.go
+++ b/a.go
@@ -3,2 +3,4 @@ func f() {
-x
-y
+x2
+y2
+z
+w
@@ -20 +22,0 @@ func g() {
-gone
diff --git a/old.py b/new.py
similarity index 80%
rename from old.py
rename to new.py
--- a/old.py
+++ b/new.py
@@ -1 +1 @@
-a
+b
diff --git a/dead.ts b/dead.ts
deleted file mode 100644
--- a/dead.ts
+++ /dev/null
@@ -1,3 +0,0 @@
-1
-2
-3
`
	files := parseDiff([]byte(diff))
	type want struct {
		path, status, old string
		ranges            [][2]int
		hunks             []hunk
	}
	wants := []want{
		{"a.go", "modified", "", [][2]int{{3, 6}, {22, 23}}, []hunk{{3, 2, 3, 4}, {20, 1, 22, 0}}},
		{"new.py", "renamed", "old.py", [][2]int{{1, 1}}, []hunk{{1, 1, 1, 1}}},
		{"dead.ts", "deleted", "", [][2]int{{1, 3}}, []hunk{{1, 3, 0, 0}}},
	}
	if len(files) != len(wants) {
		t.Fatalf("%d files, want %d: %+v", len(files), len(wants), files)
	}
	for i, w := range wants {
		f := files[i]
		if f.Path != w.path || f.Status != w.status || f.OldPath != w.old || !equalRanges(f.Ranges, w.ranges) || !equalHunks(f.hunks, w.hunks) {
			t.Errorf("file %d = %+v, want %+v", i, f, w)
		}
	}
}

func equalRanges(a, b [][2]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalHunks(a, b []hunk) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestParseHunkBounds(t *testing.T) {
	for _, line := range []string{"@@ -1,2 +9223372036854775807,2 @@", "@@ -1,-1 +1 @@", "@@ -x +1 @@", "@@ -1"} {
		if _, _, _, _, ok := parseHunk(line); ok {
			t.Errorf("parseHunk(%q) accepted", line)
		}
	}
	if a, b, c, d, ok := parseHunk("@@ -7 +8,0 @@ func f()"); !ok || a != 7 || b != 1 || c != 8 || d != 0 {
		t.Errorf("parseHunk: %d %d %d %d %v", a, b, c, d, ok)
	}
}
