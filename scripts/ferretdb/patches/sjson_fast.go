// Added to FerretDB's sjson package by the catalog's build (server/database/embedded/build-ferretdb.ts).

package sjson

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// fastUnmarshal decodes a stored document in one pass over its bytes: its schema ($s, which Marshal
// writes first) by hand, then each value as its schema element says. Unmarshal's own way reads each
// nesting level anew (encoding/json into a map of raw messages per object, and the schema by
// reflection), so a document costs its size times its depth. ok is false for whatever this does not
// decode exactly as Unmarshal would (another layout, a malformed value): Unmarshal then decodes it.
// binData, ObjectId, regex and timestamp values are handed to Unmarshal's own decoders.
// With only, a top-level field not in it is skipped, not decoded (UnmarshalFields).
func fastUnmarshal(data []byte, only map[string]struct{}) (*types.Document, bool) {
	p := &fastParser{b: data, only: only}
	if !p.lit(`{"$s":`) {
		return nil, false
	}

	sch, ok := p.sharedSchema()
	if !ok {
		return nil, false
	}

	d := must.NotFail(types.NewDocument())

	for i := 0; ; i++ {
		if p.lit(`}`) {
			return d, i == len(sch.Keys) && p.end()
		}

		if !p.lit(`,`) || !p.topMember(sch, i, d) {
			return nil, false
		}
	}
}

// UnmarshalFields decodes a stored document as Unmarshal does, with only its top-level fields of
// `only` (nil: all): a find of a few fields of large documents decoded every field to drop most.
// A document the one-pass decoder does not take is decoded whole: a superset is as good.
func UnmarshalFields(data []byte, only map[string]struct{}) (*types.Document, error) {
	if only != nil {
		if d, ok := fastUnmarshal(data, only); ok {
			return d, nil
		}
	}

	return Unmarshal(data)
}

// topMember reads the i-th top-level field, or skips its value when the parser keeps only others.
func (p *fastParser) topMember(sch *schema, i int, d *types.Document) bool {
	if p.only == nil {
		return p.member(sch, i, d)
	}

	start := p.i
	key, ok := p.str()
	if !ok || i >= len(sch.Keys) || sch.Keys[i] != key || !p.lit(`:`) {
		return false
	}

	if _, kept := p.only[key]; kept {
		p.i = start
		return p.member(sch, i, d)
	}

	_, ok = p.skip()

	return ok
}

// The documents of one collection have few shapes, and each shape's schema is written as the same
// bytes in every document of that shape; parsed, it was half of decoding a small document. So a
// schema is parsed once and shared by every document that has it: nothing changes a schema after it
// is parsed. The cache holds at most schemaCacheBytes of schema text; when full it starts again.
const schemaCacheBytes = 8 << 20

var schemaCache = struct {
	sync.RWMutex
	bytes int
	m     map[string]*schema
}{m: map[string]*schema{}}

// sharedSchema reads a document's schema, parsed once per distinct text.
func (p *fastParser) sharedSchema() (*schema, bool) {
	raw, ok := p.span()
	if !ok {
		return nil, false
	}

	schemaCache.RLock()
	sch := schemaCache.m[string(raw)]
	schemaCache.RUnlock()

	if sch != nil {
		return sch, true
	}

	sp := &fastParser{b: raw}
	if sch, ok = sp.schema(); !ok || !sp.end() {
		return nil, false
	}

	schemaCache.Lock()
	if schemaCache.bytes+len(raw) > schemaCacheBytes {
		schemaCache.m, schemaCache.bytes = map[string]*schema{}, 0
	}

	schemaCache.m[string(raw)] = sch
	schemaCache.bytes += len(raw)
	schemaCache.Unlock()

	return sch, true
}

// span reads the bytes of a JSON object without decoding them: strings are stepped over, so a brace
// inside one is no brace. What it spans is parsed (and checked) by schema when not in the cache.
func (p *fastParser) span() ([]byte, bool) {
	p.ws()

	if p.i >= len(p.b) || p.b[p.i] != '{' {
		return nil, false
	}

	start, depth := p.i, 0

	for ; p.i < len(p.b); p.i++ {
		switch p.b[p.i] {
		case '"':
			for p.i++; p.i < len(p.b) && p.b[p.i] != '"'; p.i++ {
				if p.b[p.i] == '\\' {
					p.i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				p.i++
				return p.b[start:p.i], true
			}
		}
	}

	return nil, false
}

type fastParser struct {
	b    []byte
	i    int
	only map[string]struct{} // the top-level fields to decode; nil: all
}

func (p *fastParser) ws() {
	for p.i < len(p.b) && (p.b[p.i] == ' ' || p.b[p.i] == '\n' || p.b[p.i] == '\t' || p.b[p.i] == '\r') {
		p.i++
	}
}

// lit consumes s (after white space) when it comes next.
func (p *fastParser) lit(s string) bool {
	p.ws()

	if !bytes.HasPrefix(p.b[p.i:], []byte(s)) {
		return false
	}

	p.i += len(s)

	return true
}

func (p *fastParser) end() bool {
	p.ws()
	return p.i == len(p.b)
}

// str reads a JSON string; one with an escape or invalid UTF-8 is decoded by encoding/json, as before.
func (p *fastParser) str() (string, bool) {
	p.ws()

	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", false
	}

	start, escaped := p.i, false

	for p.i++; p.i < len(p.b); p.i++ {
		switch c := p.b[p.i]; {
		case c == '\\':
			escaped = true
			p.i++
		case c == '"':
			p.i++
			raw := p.b[start:p.i]

			if !escaped && utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1]), true
			}

			var s string

			return s, json.Unmarshal(raw, &s) == nil
		case c < 0x20:
			return "", false
		}
	}

	return "", false
}

// numberBytes are the bytes a JSON number is written with.
var numberBytes = []byte("-+.eE0123456789")

// number reads a JSON number's text.
func (p *fastParser) number() (string, bool) {
	p.ws()
	start := p.i

	for p.i < len(p.b) && bytes.IndexByte(numberBytes, p.b[p.i]) >= 0 {
		p.i++
	}

	if p.i == start || !json.Valid(p.b[start:p.i]) {
		return "", false
	}

	return string(p.b[start:p.i]), true
}

// skip reads any JSON value and returns its bytes.
func (p *fastParser) skip() ([]byte, bool) {
	p.ws()
	start, depth := p.i, 0

	for p.i < len(p.b) {
		switch p.b[p.i] {
		case '"':
			// Stepped over, not decoded: a skipped field's strings are never made.
			for p.i++; p.i < len(p.b) && p.b[p.i] != '"'; p.i++ {
				if p.b[p.i] == '\\' {
					p.i++
				}
			}

			if p.i >= len(p.b) {
				return nil, false
			}

			p.i++

			if depth == 0 {
				return p.b[start:p.i], true
			}

			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--

			if depth < 0 {
				return nil, false
			}

			if depth == 0 {
				p.i++
				return p.b[start:p.i], true
			}
		case ',', ' ', '\n', '\t', '\r':
			if depth == 0 {
				return p.b[start:p.i], p.i > start
			}
		}

		p.i++
	}

	return p.b[start:p.i], depth == 0 && p.i > start
}

// schema reads {"p": {key: elem, ...}, "$k": [key, ...]} (either key may be missing, as encoding/json allows).
func (p *fastParser) schema() (*schema, bool) {
	sch := new(schema)

	ok := p.object(func(key string) bool {
		switch key {
		case "p":
			sch.Properties = map[string]*elem{}

			return p.object(func(name string) bool {
				e, ok := p.elem()
				sch.Properties[name] = e

				return ok
			})
		case "$k":
			return p.array(func() bool {
				k, ok := p.str()
				sch.Keys = append(sch.Keys, k)

				return ok
			})
		default:
			return false
		}
	})

	return sch, ok
}

// elem reads a schema element: {"t": type, "$s": schema, "o": options, "i": [elem, ...], "s": subtype}.
func (p *fastParser) elem() (*elem, bool) {
	e := new(elem)

	ok := p.object(func(key string) bool {
		switch key {
		case "t":
			t, ok := p.str()
			e.Type = elemType(t)

			return ok
		case "$s":
			s, ok := p.schema()
			e.Schema = s

			return ok
		case "o":
			o, ok := p.str()
			e.Options = &o

			return ok
		case "i":
			e.Items = []*elem{}

			return p.array(func() bool {
				item, ok := p.elem()
				e.Items = append(e.Items, item)

				return ok
			})
		case "s":
			n, ok := p.number()
			s, err := strconv.ParseUint(n, 10, 8)
			subtype := types.BinarySubtype(s)
			e.Subtype = &subtype

			return ok && err == nil
		default:
			return false
		}
	})

	return e, ok
}

// object reads {key: value, ...}, each value by member.
func (p *fastParser) object(member func(key string) bool) bool {
	if !p.lit(`{`) {
		return false
	}

	if p.lit(`}`) {
		return true
	}

	for {
		key, ok := p.str()
		if !ok || !p.lit(`:`) || !member(key) {
			return false
		}

		if p.lit(`}`) {
			return true
		}

		if !p.lit(`,`) {
			return false
		}
	}
}

// array reads [item, ...], each by item.
func (p *fastParser) array(item func() bool) bool {
	if !p.lit(`[`) {
		return false
	}

	if p.lit(`]`) {
		return true
	}

	for {
		if !item() {
			return false
		}

		if p.lit(`]`) {
			return true
		}

		if !p.lit(`,`) {
			return false
		}
	}
}

// member reads the i-th field of a document, which must be the schema's i-th key.
func (p *fastParser) member(sch *schema, i int, d *types.Document) bool {
	key, ok := p.str()
	if !ok || i >= len(sch.Keys) || sch.Keys[i] != key || !p.lit(`:`) {
		return false
	}

	e := sch.Properties[key]
	if e == nil {
		return false
	}

	v, ok := p.value(e)
	if ok {
		d.Set(key, v)
	}

	return ok
}

// value reads a value of the element's type, as unmarshalSingleValue would.
func (p *fastParser) value(e *elem) (any, bool) {
	if p.lit(`null`) {
		return types.Null, true
	}

	switch e.Type {
	case elemTypeObject:
		return p.document(e.Schema)
	case elemTypeArray:
		return p.items(e.Items)
	case elemTypeString:
		return p.str()
	case elemTypeBool:
		if p.lit(`true`) {
			return true, true
		}

		return false, p.lit(`false`)
	case elemTypeInt:
		n, ok := p.number()
		i, err := strconv.ParseInt(n, 10, 32)

		return int32(i), ok && err == nil
	case elemTypeLong:
		n, ok := p.number()
		i, err := strconv.ParseInt(n, 10, 64)

		return i, ok && err == nil
	case elemTypeDate:
		n, ok := p.number()
		i, err := strconv.ParseInt(n, 10, 64)

		return time.UnixMilli(i), ok && err == nil
	case elemTypeDouble:
		n, ok := p.number()
		f, err := strconv.ParseFloat(n, 64)

		return f, ok && err == nil
	default:
		raw, ok := p.skip()
		if !ok {
			return nil, false
		}

		v, err := unmarshalSingleValue(raw, e)

		return v, err == nil
	}
}

// document reads an embedded document: empty, or exactly the schema's keys in its order.
func (p *fastParser) document(sch *schema) (*types.Document, bool) {
	if !p.lit(`{`) {
		return nil, false
	}

	d := must.NotFail(types.NewDocument())

	if p.lit(`}`) {
		return d, true
	}

	if sch == nil {
		return nil, false
	}

	for i := 0; ; i++ {
		if i > 0 && !p.lit(`,`) {
			return nil, false
		}

		if !p.member(sch, i, d) {
			return nil, false
		}

		if p.lit(`}`) {
			return d, i+1 == len(sch.Keys)
		}
	}
}

// items reads an array with one schema element per item.
func (p *fastParser) items(schemas []*elem) (*types.Array, bool) {
	a := types.MakeArray(len(schemas))
	i := 0

	ok := p.array(func() bool {
		if i >= len(schemas) || schemas[i] == nil {
			return false
		}

		v, ok := p.value(schemas[i])
		if ok {
			a.Append(v)
		}

		i++

		return ok
	})

	return a, ok && i == len(schemas)
}
