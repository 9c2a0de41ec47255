package main

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
)

// A problem is one citation that does not resolve.
type problem struct {
	File string
	Line int
	Text string
}

func (p problem) String() string { return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Text) }

var (
	// docRE matches a cited Markdown document: a path ending in .md.
	docRE = regexp.MustCompile(`(?:\.{1,2}/)?(?:[A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.md\b`)
	// sectionRE matches a section number after the section sign.
	sectionRE = regexp.MustCompile(`§(\d+(?:\.\d+)*)`)
	// urlRE matches a URL, whose .md paths are not in the repository.
	urlRE = regexp.MustCompile(`[a-z][a-z0-9+.-]*://[^\s)>\]"'` + "`" + `]+`)
	// headingRE matches a numbered Markdown heading: "## 4. Add" or "### 4.2 GA".
	headingRE = regexp.MustCompile(`^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s`)
)

// lookback is how many lines before a section sign the document it belongs
// to may be named in code, within one comment (a citation wrapped over a
// comment's lines). In Markdown the document must be named on the same
// line.
const lookback = 3

// A mention is a document or section found on a line.
type mention struct {
	col int
	doc string // a document path as written, or ""
	sec string // a section number, or ""
}

// check returns every citation in the named files of fsys that names a
// document that does not exist, or a section that is not a numbered heading
// of the document it belongs to. A section belongs to the document named
// last before it on its line or, in code, the lookback lines of the same
// comment above; in a
// Markdown file, a section with no document before it on its line belongs
// to the file itself.
func check(fsys fs.FS, files []string) ([]problem, error) {
	headings := map[string]map[string]bool{}
	var out []problem
	for _, f := range files {
		data, err := fs.ReadFile(fsys, f)
		if err != nil {
			return nil, err
		}
		ps, err := checkFile(fsys, f, string(data), headings)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}

func checkFile(fsys fs.FS, file, text string, headings map[string]map[string]bool) ([]problem, error) {
	var out []problem
	md := strings.HasSuffix(file, ".md")
	back := lookback
	if md {
		back = 0
	}
	lastDoc, lastLine := "", 0
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		for _, m := range mentions(line) {
			if m.doc != "" {
				doc, ok := resolve(fsys, file, m.doc)
				if !ok {
					out = append(out, problem{file, i + 1, fmt.Sprintf("cites %s, which is not in the repository", m.doc)})
					lastDoc = ""
					continue
				}
				lastDoc, lastLine = doc, i
				continue
			}
			doc := lastDoc
			if i-lastLine > back || doc == "" || !sameComment(lines[lastLine:i+1]) {
				doc = ""
				if md {
					doc = file
				}
			}
			if doc == "" {
				out = append(out, problem{file, i + 1, fmt.Sprintf("cites §%s without naming the document (for example docs/rustfs-wire.md §%s)", m.sec, m.sec)})
				continue
			}
			ok, err := hasSection(fsys, doc, m.sec, headings)
			if err != nil {
				return nil, err
			}
			if !ok {
				out = append(out, problem{file, i + 1, fmt.Sprintf("cites %s §%s, which has no heading numbered %s", doc, m.sec, m.sec)})
			}
		}
	}
	return out, nil
}

// sameComment reports whether lines are one line, or all lines of one
// comment: a citation wrapped over a comment's lines lends its document to
// the lines below it, but not to another comment or to code.
func sameComment(lines []string) bool {
	if len(lines) == 1 {
		return true
	}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "//") && !strings.HasPrefix(t, "#") {
			return false
		}
	}
	return true
}

// mentions returns the documents and sections of a line in order, leaving
// out what lies inside URLs.
func mentions(line string) []mention {
	line = urlRE.ReplaceAllStringFunc(line, func(s string) string { return strings.Repeat(" ", len(s)) })
	var ms []mention
	for _, loc := range docRE.FindAllStringIndex(line, -1) {
		ms = append(ms, mention{col: loc[0], doc: line[loc[0]:loc[1]]})
	}
	for _, loc := range sectionRE.FindAllStringSubmatchIndex(line, -1) {
		ms = append(ms, mention{col: loc[0], sec: line[loc[2]:loc[3]]})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].col < ms[j].col })
	return ms
}

// resolve finds a cited document relative to the repository root, or to
// the citing file's directory (as Markdown links are).
func resolve(fsys fs.FS, from, doc string) (string, bool) {
	for _, p := range []string{path.Clean(doc), path.Join(path.Dir(from), doc)} {
		if strings.HasPrefix(p, "../") {
			continue
		}
		if st, err := fs.Stat(fsys, p); err == nil && !st.IsDir() {
			return p, true
		}
	}
	return "", false
}

// hasSection reports whether doc has a heading numbered sec.
func hasSection(fsys fs.FS, doc, sec string, cache map[string]map[string]bool) (bool, error) {
	h, ok := cache[doc]
	if !ok {
		data, err := fs.ReadFile(fsys, doc)
		if err != nil {
			return false, err
		}
		h = map[string]bool{}
		for _, line := range strings.Split(string(data), "\n") {
			if m := headingRE.FindStringSubmatch(line); m != nil {
				h[m[1]] = true
			}
		}
		cache[doc] = h
	}
	return h[sec], nil
}
