package rustfstest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// RustFS decodes IAM documents with serde, which keeps the order of object
// members, refuses duplicate struct fields and renders them back in that
// order. encoding/json's maps lose the order, so the emulator reads policies
// into this small ordered tree.

// A jsonNode is one decoded JSON value.
type jsonNode struct {
	kind    byte // '{', '[', '"', or 'v' for numbers, booleans and null
	members []jsonMember
	items   []jsonNode
	text    string // the string, or the literal of a 'v' node
}

// A jsonMember is one member of an object, in document order.
type jsonMember struct {
	key   string
	value jsonNode
}

var errJSONShape = errors.New("malformed JSON")

// parseJSONTree decodes exactly one JSON value.
func parseJSONTree(b []byte) (jsonNode, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	n, err := readNode(d)
	if err != nil {
		return jsonNode{}, err
	}
	if _, err := d.Token(); err != io.EOF {
		return jsonNode{}, errJSONShape
	}
	return n, nil
}

func readNode(d *json.Decoder) (jsonNode, error) {
	t, err := d.Token()
	if err != nil {
		return jsonNode{}, errJSONShape
	}
	switch v := t.(type) {
	case json.Delim:
		if v == '{' {
			return readObject(d)
		}
		if v == '[' {
			return readArray(d)
		}
		return jsonNode{}, errJSONShape
	case string:
		return jsonNode{kind: '"', text: v}, nil
	case json.Number:
		return jsonNode{kind: 'v', text: v.String()}, nil
	case bool:
		if v {
			return jsonNode{kind: 'v', text: "true"}, nil
		}
		return jsonNode{kind: 'v', text: "false"}, nil
	}
	return jsonNode{kind: 'v', text: "null"}, nil
}

func readObject(d *json.Decoder) (jsonNode, error) {
	n := jsonNode{kind: '{'}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return jsonNode{}, errJSONShape
		}
		key, _ := t.(string)
		value, err := readNode(d)
		if err != nil {
			return jsonNode{}, err
		}
		n.members = append(n.members, jsonMember{key: key, value: value})
	}
	if _, err := d.Token(); err != nil {
		return jsonNode{}, errJSONShape
	}
	return n, nil
}

func readArray(d *json.Decoder) (jsonNode, error) {
	n := jsonNode{kind: '['}
	for d.More() {
		item, err := readNode(d)
		if err != nil {
			return jsonNode{}, err
		}
		n.items = append(n.items, item)
	}
	if _, err := d.Token(); err != nil {
		return jsonNode{}, errJSONShape
	}
	return n, nil
}

// isNull reports whether the node is JSON null.
func (n jsonNode) isNull() bool { return n.kind == 'v' && n.text == "null" }

// stringList reads a serde "string or array of strings" value (ActionSet,
// ResourceSet, condition values).
func (n jsonNode) stringList() ([]string, bool) {
	if n.kind == '"' {
		return []string{n.text}, true
	}
	if n.kind != '[' {
		return nil, false
	}
	out := make([]string, 0, len(n.items))
	for _, it := range n.items {
		if it.kind != '"' {
			return nil, false
		}
		out = append(out, it.text)
	}
	return out, true
}

// An orderedJSON renders members in the given order, as serde does.
type orderedJSON []jsonMember

// MarshalJSON writes the members in order; values are rendered by
// renderValue.
func (o orderedJSON) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key) // a string
		b.Write(k)
		b.WriteByte(':')
		v, err := renderValue(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

func renderValue(n jsonNode) ([]byte, error) {
	switch n.kind {
	case '{':
		return orderedJSON(n.members).MarshalJSON()
	case '[':
		parts := make([][]byte, len(n.items))
		for i, it := range n.items {
			v, err := renderValue(it)
			if err != nil {
				return nil, err
			}
			parts[i] = v
		}
		return append(append([]byte{'['}, bytes.Join(parts, []byte{','})...), ']'), nil
	case '"':
		return marshalNoEscape(n.text)
	}
	return []byte(n.text), nil
}

// marshalNoEscape encodes v without HTML escaping, as serde_json does.
func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
