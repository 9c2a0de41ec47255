package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
)

// Limits are the house-style limits a file is held to; zero means none.
type Limits struct {
	FileLines  int // lines of the file
	FuncLines  int // lines of a function, from func to its closing brace
	Cyclomatic int // cyclomatic complexity of a function
}

// defaultLimits are docs/contributing.md §1's: functions of 50 lines and
// files of 300 everywhere, and a cyclomatic complexity of 10 in the
// controllers' code (their tests are tables, not decisions).
func defaultLimits(name string) Limits {
	l := Limits{FileLines: 300, FuncLines: 50}
	if strings.HasPrefix(name, "internal/controller/") && !strings.HasSuffix(name, "_test.go") {
		l.Cyclomatic = 10
	}
	return l
}

// directive matches the nolint comment golangci-lint reads.
var directive = regexp.MustCompile(`^//\s*nolint\b`)

// check returns the problems of one Go file; none for a generated file.
func check(name string, src []byte, l Limits) ([]string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	if ast.IsGenerated(f) {
		return nil, nil
	}
	var problems []string
	report := func(pos token.Pos, format string, args ...any) {
		problems = append(problems, fmt.Sprintf("%s: ", fset.Position(pos))+fmt.Sprintf(format, args...))
	}
	if n := fset.File(f.Pos()).LineCount(); l.FileLines > 0 && n > l.FileLines {
		report(f.Package, "file has %d lines (limit %d): split it by concern", n, l.FileLines)
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			if directive.MatchString(c.Text) {
				report(c.Pos(), "//nolint directive: no linter reads it; say why in a plain comment or fix the code")
			}
		}
	}
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue
		}
		lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1
		if l.FuncLines > 0 && lines > l.FuncLines {
			report(fn.Pos(), "%s has %d lines (limit %d)", funcName(fn), lines, l.FuncLines)
		}
		if c := cyclomatic(fn); l.Cyclomatic > 0 && c > l.Cyclomatic {
			report(fn.Pos(), "%s has cyclomatic complexity %d (limit %d)", funcName(fn), c, l.Cyclomatic)
		}
	}
	return problems, nil
}

// funcName is a function's name, with its receiver's type for a method.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*ast.IndexExpr); ok {
		t = ix.X
	}
	if ix, ok := t.(*ast.IndexListExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + fn.Name.Name
	}
	return fn.Name.Name
}

// cyclomatic is a function's cyclomatic complexity as gocyclo counts it:
// one, plus one for each if, for, range, non-default case or select
// clause, and each && and ||, function literals included.
func cyclomatic(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}
