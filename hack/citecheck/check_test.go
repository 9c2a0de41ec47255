package main

import (
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

const wire = `# Wire
## 0. Sources
### Quick reference
## 4. Add semantics
### 4.2 GA order
### 12.10 Emulator modes
`

// A checkCase is one file's text and the problems check must report.
type checkCase struct {
	reason string
	file   string
	text   string
	want   []problem
}

func checkCases() map[string]checkCase {
	cases := codeCases()
	for k, v := range markdownCases() {
		cases[k] = v
	}
	return cases
}

// codeCases are citations in code.
func codeCases() map[string]checkCase {
	return map[string]checkCase{
		"ExistingSection": {
			reason: "A citation of an existing document and heading resolves.",
			file:   "internal/x.go", text: "// docs/wire.md §4.2 and §12.10, §0\n",
		},
		"MissingDocument": {
			reason: "A document outside the repository is reported, which is how v0.1 cited shared/docs.",
			file:   "internal/x.go", text: "// see shared/docs/rustfs-wire.md §4\n",
			want: []problem{{"internal/x.go", 1, "cites shared/docs/rustfs-wire.md, which is not in the repository"},
				{"internal/x.go", 1, "cites §4 without naming the document (for example docs/rustfs-wire.md §4)"}},
		},
		"BareNameFromCode": {
			reason: "A bare document name resolves only next to the citing file, so code must give the repository path.",
			file:   "internal/x.go", text: "// wire.md §4\n",
			want: []problem{{"internal/x.go", 1, "cites wire.md, which is not in the repository"},
				{"internal/x.go", 1, "cites §4 without naming the document (for example docs/rustfs-wire.md §4)"}},
		},
		"MissingSection": {
			reason: "A section that is not a numbered heading of the named document is reported.",
			file:   "internal/x.go", text: "// docs/wire.md §4.3\n",
			want: []problem{{"internal/x.go", 1, "cites docs/wire.md §4.3, which has no heading numbered 4.3"}},
		},
		"SectionWithoutDocument": {
			reason: "A section sign in code must name its document.",
			file:   "internal/x.go", text: "x := 1 // §4\n",
			want: []problem{{"internal/x.go", 1, "cites §4 without naming the document (for example docs/rustfs-wire.md §4)"}},
		},
		"WrappedCitation": {
			reason: "A citation wrapped onto the next comment line keeps its document.",
			file:   "internal/x.go", text: "// as docs/wire.md\n// §4 says\n",
		},
		"DocumentTooFarAbove": {
			reason: "A document named more than three lines above does not lend its name.",
			file:   "internal/x.go", text: "// docs/wire.md\n//\n//\n//\n// §4\n",
			want: []problem{{"internal/x.go", 5, "cites §4 without naming the document (for example docs/rustfs-wire.md §4)"}},
		},
		"AnotherCommentDoesNotLend": {
			reason: "A document named in one comment does not lend its name to the next comment or to code.",
			file:   "internal/x.go", text: "// docs/wire.md §4\nx := 1\n// §4.2\ny := 2 // §0\n",
			want: []problem{{"internal/x.go", 3, "cites §4.2 without naming the document (for example docs/rustfs-wire.md §4.2)"},
				{"internal/x.go", 4, "cites §0 without naming the document (for example docs/rustfs-wire.md §0)"}},
		},
	}
}

// markdownCases are citations in Markdown, and URLs.
func markdownCases() map[string]checkCase {
	return map[string]checkCase{
		"MarkdownRelativeLinkAndOwnSections": {
			reason: "A Markdown file resolves names next to itself, and a bare section is its own.",
			file:   "docs/design.md", text: "# D\n## 1. One\nSee [wire](wire.md) §4.2, §4,\nand §1.\n",
		},
		"MarkdownOwnMissingSection": {
			reason: "A bare section in a Markdown file must be one of its own headings.",
			file:   "docs/design.md", text: "# D\n## 1. One\nsee §2\n",
			want: []problem{{"docs/design.md", 3, "cites docs/design.md §2, which has no heading numbered 2"}},
		},
		"URLsAreNotCitations": {
			reason: "A .md path inside a URL is another site's and is not checked.",
			file:   "internal/x.go", text: "// https://github.com/crossplane/crossplane/blob/x/design/one-pager.md\n",
		},
		"MissingDocumentBreaksTheChain": {
			reason: "After an unresolved document, a section is not attributed to an older one.",
			file:   "internal/x.go", text: "// docs/wire.md §4 and design.md §4\n",
			want: []problem{{"internal/x.go", 1, "cites design.md, which is not in the repository"},
				{"internal/x.go", 1, "cites §4 without naming the document (for example docs/rustfs-wire.md §4)"}},
		},
	}
}

func TestCheck(t *testing.T) {
	for name, tc := range checkCases() {
		t.Run(name, func(t *testing.T) {
			fsys := fstest.MapFS{
				"docs/wire.md":   {Data: []byte(wire)},
				"docs/design.md": {Data: []byte("# D\n## 1. One\n")},
				tc.file:          {Data: []byte(tc.text)},
			}
			got, err := check(fsys, []string{tc.file})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s\n-want +got:\n%s", tc.reason, diff)
			}
		})
	}
}

func TestChecked(t *testing.T) {
	for name, want := range map[string]bool{
		"internal/clients/rustfs/admin.go": true, "docs/design.md": true, "hack/mutate.sh": true, "Makefile": true,
		"examples/tier/tier-s3.yaml": true, "package/provider/crds/rustfs.m.crossplane.io_tiers.yaml": false, "go.sum": false,
		"hack/citecheck/check_test.go": false,
	} {
		if got := checked(name); got != want {
			t.Errorf("checked(%q) = %t, want %t", name, got, want)
		}
	}
}
