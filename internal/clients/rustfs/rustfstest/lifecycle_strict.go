package rustfstest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
)

// Strict lifecycle XML (docs/rustfs-wire.md §8.3): s3s's generated deserializers refuse an
// unknown child element and a repeated single-valued child anywhere inside a
// <Rule>, a rule without <Status>, a configuration without <Rule>, and
// content after the root, all as MalformedXML, before RustFS's own
// validation runs. Unknown children of the root are skipped.

// lcChildren lists, per element, its children and whether each may repeat
// (s3s: crates/s3s/src/xml/generated_minio.rs).
var lcChildren = map[string]map[string]bool{
	"Rule": {"AbortIncompleteMultipartUpload": false, "DelMarkerExpiration": false, "Expiration": false,
		"Filter": false, "ID": false, "NoncurrentVersionExpiration": false, "NoncurrentVersionTransition": true,
		"Prefix": false, "Status": false, "Transition": true},
	"Filter":                         {"And": false, "ObjectSizeGreaterThan": false, "ObjectSizeLessThan": false, "Prefix": false, "Tag": false},
	"And":                            {"ObjectSizeGreaterThan": false, "ObjectSizeLessThan": false, "Prefix": false, "Tag": true},
	"Tag":                            {"Key": false, "Value": false},
	"Expiration":                     {"Date": false, "Days": false, "ExpiredObjectAllVersions": false, "ExpiredObjectDeleteMarker": false},
	"Transition":                     {"Date": false, "Days": false, "StorageClass": false},
	"NoncurrentVersionTransition":    {"NewerNoncurrentVersions": false, "NoncurrentDays": false, "StorageClass": false},
	"NoncurrentVersionExpiration":    {"NewerNoncurrentVersions": false, "NoncurrentDays": false},
	"AbortIncompleteMultipartUpload": {"DaysAfterInitiation": false},
	"DelMarkerExpiration":            {"Days": false},
}

var (
	errUnexpectedTag = errors.New("unexpected tag name")
	errDuplicate     = errors.New("duplicate field")
	errMissingField  = errors.New("missing field")
)

// checkStrict reports the first way body breaks s3s's lifecycle schema.
func checkStrict(body []byte) error {
	d := xml.NewDecoder(bytes.NewReader(body))
	root, err := firstElement(d)
	if err != nil {
		return err
	}
	if root.Name.Local != "LifecycleConfiguration" && root.Name.Local != "BucketLifecycleConfiguration" {
		return errBadRoot
	}
	if err := checkRoot(d); err != nil {
		return err
	}
	return expectEOF(d)
}

// checkRoot walks the root's children: <Rule>s are checked, one
// <ExpiryUpdatedAt> is allowed, anything else is skipped.
func checkRoot(d *xml.Decoder) error {
	rules, updated := 0, 0
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			if rules == 0 {
				return errMissingField
			}
			return nil
		case xml.StartElement:
			switch t.Name.Local {
			case "Rule":
				rules++
				err = checkElement(d, "Rule")
			case "ExpiryUpdatedAt":
				updated++
				if updated > 1 {
					return errDuplicate
				}
				err = d.Skip()
			default:
				err = d.Skip()
			}
			if err != nil {
				return err
			}
		}
	}
}

// checkElement checks the children of an element of the schema, whose start
// tag has been read, up to its end tag.
func checkElement(d *xml.Decoder, name string) error {
	allowed := lcChildren[name]
	seen := map[string]bool{}
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.EndElement:
			if name == "Rule" && !seen["Status"] {
				return errMissingField
			}
			return nil
		case xml.StartElement:
			child := t.Name.Local
			repeatable, ok := allowed[child]
			switch {
			case !ok:
				return errUnexpectedTag
			case seen[child] && !repeatable:
				return errDuplicate
			}
			seen[child] = true
			if err := checkChild(d, child); err != nil {
				return err
			}
		}
	}
}

// checkChild checks an element: a structure of the schema, or a leaf that
// holds text only.
func checkChild(d *xml.Decoder, name string) error {
	if _, ok := lcChildren[name]; ok {
		return checkElement(d, name)
	}
	for {
		tok, err := d.Token()
		if err != nil {
			return err
		}
		switch tok.(type) {
		case xml.StartElement:
			return errUnexpectedTag
		case xml.EndElement:
			return nil
		}
	}
}

func firstElement(d *xml.Decoder) (xml.StartElement, error) {
	for {
		tok, err := d.Token()
		if err != nil {
			return xml.StartElement{}, err
		}
		if s, ok := tok.(xml.StartElement); ok {
			return s, nil
		}
	}
}

// expectEOF refuses anything but whitespace, comments and processing
// instructions after the root.
func expectEOF(d *xml.Decoder) error {
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.CharData:
			if len(bytes.TrimSpace(t)) > 0 {
				return errors.New("trailing content after the root element")
			}
		case xml.Comment, xml.ProcInst:
		default:
			return errors.New("trailing content after the root element")
		}
	}
}
