package rustfstest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"time"
)

// The emulator's own lifecycle DTOs (docs/rustfs-wire.md §8.1). Field order is the order s3s
// serializes on GET (alphabetical by element), which differs from what
// clients send, so clients must compare normalised configurations.
type lcConfig struct {
	XMLName xml.Name `xml:"LifecycleConfiguration"`
	Xmlns   string   `xml:"xmlns,attr,omitempty"`
	Rules   []lcRule `xml:"Rule"`
}

type lcRule struct {
	AbortIncompleteMultipartUpload *lcAbort         `xml:"AbortIncompleteMultipartUpload"`
	DelMarkerExpiration            *lcDays          `xml:"DelMarkerExpiration"`
	Expiration                     *lcExpiration    `xml:"Expiration"`
	Filter                         *lcFilter        `xml:"Filter"`
	ID                             *string          `xml:"ID"`
	NoncurrentVersionExpiration    *lcNCExpiration  `xml:"NoncurrentVersionExpiration"`
	NoncurrentVersionTransitions   []lcNCTransition `xml:"NoncurrentVersionTransition"`
	Prefix                         *string          `xml:"Prefix"`
	Status                         *string          `xml:"Status"`
	Transitions                    []lcTransition   `xml:"Transition"`
}

type lcAbort struct {
	DaysAfterInitiation *int32 `xml:"DaysAfterInitiation"`
}

type lcDays struct {
	Days *int32 `xml:"Days"`
}

type lcExpiration struct {
	Date                      *lcDate `xml:"Date"`
	Days                      *int32  `xml:"Days"`
	ExpiredObjectAllVersions  *bool   `xml:"ExpiredObjectAllVersions"`
	ExpiredObjectDeleteMarker *bool   `xml:"ExpiredObjectDeleteMarker"`
}

type lcFilter struct {
	And                   *lcAnd  `xml:"And"`
	ObjectSizeGreaterThan *int64  `xml:"ObjectSizeGreaterThan"`
	ObjectSizeLessThan    *int64  `xml:"ObjectSizeLessThan"`
	Prefix                *string `xml:"Prefix"`
	Tag                   *lcTag  `xml:"Tag"`
}

type lcAnd struct {
	ObjectSizeGreaterThan *int64  `xml:"ObjectSizeGreaterThan"`
	ObjectSizeLessThan    *int64  `xml:"ObjectSizeLessThan"`
	Prefix                *string `xml:"Prefix"`
	Tags                  []lcTag `xml:"Tag"`
}

type lcTag struct {
	Key   string `xml:"Key"`
	Value string `xml:"Value"`
}

type lcNCExpiration struct {
	NoncurrentDays          *int32 `xml:"NoncurrentDays"`
	NewerNoncurrentVersions *int32 `xml:"NewerNoncurrentVersions"`
}

type lcNCTransition struct {
	NewerNoncurrentVersions *int32 `xml:"NewerNoncurrentVersions"`
	NoncurrentDays          *int32 `xml:"NoncurrentDays"`
	StorageClass            string `xml:"StorageClass"`
}

type lcTransition struct {
	Date         *lcDate `xml:"Date"`
	Days         *int32  `xml:"Days"`
	StorageClass string  `xml:"StorageClass"`
}

// An lcDate is an ISO 8601 timestamp. s3s re-renders it as
// 2006-01-02T15:04:05.000Z, whatever format the client sent.
type lcDate struct{ time.Time }

const lcDateFormat = "2006-01-02T15:04:05.000Z"

func (d lcDate) MarshalText() ([]byte, error) { return []byte(d.UTC().Format(lcDateFormat)), nil }

func (d *lcDate) UnmarshalText(b []byte) error {
	t, err := time.Parse(time.RFC3339Nano, string(bytes.TrimSpace(b)))
	if err != nil {
		return err
	}
	d.Time = t
	return nil
}

var errBadRoot = errors.New("unexpected root element")

// parseLifecycle decodes a PUT body. The root may be LifecycleConfiguration
// or BucketLifecycleConfiguration (docs/rustfs-wire.md §8.1); anything unparsable is MalformedXML.
func parseLifecycle(body []byte) (*lcConfig, error) {
	var raw struct {
		XMLName xml.Name
		Rules   []lcRule `xml:"Rule"`
	}
	if err := xml.Unmarshal(body, &raw); err != nil {
		return nil, err
	}
	if raw.XMLName.Local != "LifecycleConfiguration" && raw.XMLName.Local != "BucketLifecycleConfiguration" {
		return nil, errBadRoot
	}
	return &lcConfig{Rules: raw.Rules}, nil
}

// render serializes a stored configuration as GET returns it (docs/rustfs-wire.md §8.1).
func (l *lcConfig) render() []byte {
	out := lcConfig{Xmlns: s3Namespace, Rules: l.Rules}
	b, _ := xml.Marshal(out) // plain values
	return append([]byte(xml.Header), b...)
}

// namesTier reports whether any rule transitions to the tier (docs/rustfs-wire.md §6, GA #6807).
func (l *lcConfig) namesTier(name string) bool {
	if l == nil {
		return false
	}
	for _, r := range l.Rules {
		for _, t := range r.Transitions {
			if t.StorageClass == name {
				return true
			}
		}
		for _, t := range r.NoncurrentVersionTransitions {
			if t.StorageClass == name {
				return true
			}
		}
	}
	return false
}

// dropFields removes the elements named by WithDroppedLifecycleFields.
func dropFields(l *lcConfig, drop map[string]bool) {
	for i := range l.Rules {
		r := &l.Rules[i]
		if drop["DelMarkerExpiration"] {
			r.DelMarkerExpiration = nil
		}
		if drop["AbortIncompleteMultipartUpload"] {
			r.AbortIncompleteMultipartUpload = nil
		}
		if drop["NoncurrentVersionTransition"] {
			r.NoncurrentVersionTransitions = nil
		}
		dropExpiration(r.Expiration, drop)
		dropFilter(r.Filter, drop)
		dropNewer(r, drop)
	}
}

func dropExpiration(x *lcExpiration, drop map[string]bool) {
	if x == nil {
		return
	}
	if drop["ExpiredObjectAllVersions"] {
		x.ExpiredObjectAllVersions = nil
	}
	if drop["ExpiredObjectDeleteMarker"] {
		x.ExpiredObjectDeleteMarker = nil
	}
}

func dropFilter(f *lcFilter, drop map[string]bool) {
	if f == nil {
		return
	}
	if drop["ObjectSizeGreaterThan"] {
		f.ObjectSizeGreaterThan = nil
	}
	if drop["ObjectSizeLessThan"] {
		f.ObjectSizeLessThan = nil
	}
	if drop["Tag"] {
		f.Tag = nil
	}
	if a := f.And; a != nil {
		if drop["ObjectSizeGreaterThan"] {
			a.ObjectSizeGreaterThan = nil
		}
		if drop["ObjectSizeLessThan"] {
			a.ObjectSizeLessThan = nil
		}
		if drop["Tag"] {
			a.Tags = nil
		}
	}
}

func dropNewer(r *lcRule, drop map[string]bool) {
	if !drop["NewerNoncurrentVersions"] {
		return
	}
	if r.NoncurrentVersionExpiration != nil {
		r.NoncurrentVersionExpiration.NewerNoncurrentVersions = nil
	}
	for i := range r.NoncurrentVersionTransitions {
		r.NoncurrentVersionTransitions[i].NewerNoncurrentVersions = nil
	}
}
