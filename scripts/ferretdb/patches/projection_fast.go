// Added to FerretDB's find projection by the catalog's build (server/database/embedded/build-ferretdb.ts).

package common

import (
	"errors"
	"strings"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// topLevelProjection is a projection that only includes top-level fields ({a: 1, b: true}, with
// `_id` kept or not). ProjectDocument applies any projection, and for each document it deep-copies
// the document and the projection, then copies the projection again for each field it keeps
// (setBySourceOrder): a projection cost more than reading the fields it dropped. This one takes the
// kept fields from the document in its order, as ProjectDocument orders them, and copies nothing.
type topLevelProjection struct {
	keep   map[string]struct{}
	withID bool
}

// newTopLevelProjection reads a validated projection; nil for any other kind (an exclusion, a dotted
// path, a positional `$`, a value to set, an operator), which ProjectDocument applies as before.
func newTopLevelProjection(projection *types.Document, inclusion bool) *topLevelProjection {
	if !inclusion {
		return nil
	}

	p := &topLevelProjection{keep: make(map[string]struct{}, projection.Len()), withID: true}

	iter := projection.Iterator()
	defer iter.Close()

	for {
		key, value, err := iter.Next()
		if errors.Is(err, iterator.ErrIteratorDone) {
			return p
		}

		include, isBool := value.(bool)
		if err != nil || !isBool || key == "" || strings.ContainsAny(key, ".$") {
			return nil
		}

		switch {
		case key == "_id":
			p.withID = include
		case include:
			p.keep[key] = struct{}{}
		default:
			return nil
		}
	}
}

// project returns `_id` first (when kept), then the kept fields in the document's order. The values
// are the document's own, not copies: a find reads each document for its answer alone.
func (p *topLevelProjection) project(doc *types.Document) *types.Document {
	projected := types.MakeDocument(len(p.keep) + 1)
	projected.SetRecordID(doc.RecordID())

	if p.withID {
		projected.Set("_id", must.NotFail(doc.Get("_id")))
	}

	keys, values := doc.Keys(), doc.Values()
	for i, key := range keys {
		if _, ok := p.keep[key]; ok && key != "_id" {
			projected.Set(key, values[i])
		}
	}

	return projected
}
