package main

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// This file reads a Dockerfile as BuildKit would, for the instructions and
// the shell commands the generated Dockerfiles use, into a model of each
// stage's files and of the final image's config. It is written from the
// Dockerfile reference, not from the generator, so that a test can check
// what a Dockerfile builds against what make xpkg builds.

// An instruction is one Dockerfile instruction.
type instruction struct {
	cmd     string            // the keyword, upper case
	flags   map[string]string // --name=value flags before the arguments
	rest    string            // the arguments, continuation lines joined
	heredoc string            // the here-document's body, if the instruction has one
}

// heredocStart matches a here-document in an instruction: <<EOF, <<-EOF or
// <<"EOF".
var heredocStart = regexp.MustCompile(`<<-?"?([A-Za-z_]+)"?`)

// parseDockerfile splits src into instructions: comment and blank lines
// dropped, lines ending in a backslash joined to the next (as BuildKit
// does, removing the backslash and the newline), here-documents read to
// their delimiter.
func parseDockerfile(src string) ([]instruction, error) {
	lines := strings.Split(src, "\n")
	var out []instruction
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if t := strings.TrimSpace(l); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		for strings.HasSuffix(l, `\`) && i+1 < len(lines) {
			i++
			if strings.HasPrefix(strings.TrimSpace(lines[i]), "#") {
				continue // a comment line inside an instruction is dropped
			}
			l = strings.TrimSuffix(l, `\`) + lines[i]
		}
		in := splitInstruction(strings.TrimSpace(l))
		if m := heredocStart.FindStringSubmatch(in.rest); m != nil {
			end := i + 1
			for end < len(lines) && lines[end] != m[1] {
				end++
			}
			if end == len(lines) {
				return nil, fmt.Errorf("here-document %s of %q has no end", m[1], l)
			}
			in.heredoc = strings.Join(lines[i+1:end], "\n") + "\n"
			in.rest = strings.TrimSpace(strings.Replace(in.rest, m[0], "", 1))
			i = end
		}
		out = append(out, in)
	}
	return out, nil
}

// splitInstruction splits a joined instruction line into its keyword, its
// leading --flags and the rest.
func splitInstruction(l string) instruction {
	cmd, rest, _ := strings.Cut(l, " ")
	in := instruction{cmd: strings.ToUpper(cmd), flags: map[string]string{}}
	rest = strings.TrimSpace(rest)
	for strings.HasPrefix(rest, "--") {
		flag, after, _ := strings.Cut(rest, " ")
		k, v, _ := strings.Cut(strings.TrimPrefix(flag, "--"), "=")
		if _, seen := in.flags[k]; seen {
			v = in.flags[k] + "," + v // repeated flags, e.g. --mount
		}
		in.flags[k] = v
		rest = strings.TrimSpace(after)
	}
	in.rest = rest
	return in
}

// shellSpecial are the characters of shell syntax the model does not
// interpret; a word holding one is an error, not a guess.
const shellSpecial = "\\`;|&<>()*?[]"

// shellWords splits a simple shell command into words as a POSIX shell
// would: blanks separate words, double quotes group and expand $NAME and
// ${NAME} from vars, single quotes group literally.
func shellWords(s string, vars map[string]string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	expand := func(x string) string { return os.Expand(x, func(k string) string { return vars[k] }) }
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				words, inWord = append(words, cur.String()), false
				cur.Reset()
			}
		case c == '"' || c == '\'':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("unterminated %c in %q", c, s)
			}
			seg := s[i+1 : i+1+j]
			if c == '"' {
				seg = expand(seg)
			}
			cur.WriteString(seg)
			inWord, i = true, i+1+j
		case strings.IndexByte(shellSpecial, c) >= 0:
			return nil, fmt.Errorf("shell syntax %q in %q is not modelled", c, s)
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(" \t\n\"'"+shellSpecial, rune(s[j])) {
				j++
			}
			cur.WriteString(expand(s[i:j]))
			inWord, i = true, j-1
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// jsonArgs reads the exec (JSON array) form of ENTRYPOINT or CMD.
func jsonArgs(rest string) ([]string, error) {
	var out []string
	if err := json.Unmarshal([]byte(rest), &out); err != nil {
		return nil, fmt.Errorf("not the exec form %q: %w", rest, err)
	}
	return out, nil
}
