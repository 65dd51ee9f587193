// Added to FerretDB's find by the catalog's build (server/database/embedded/build-ferretdb.ts).

package handler

import (
	"errors"
	"strings"

	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
)

// findFields returns the top-level fields a find with an inclusion projection reads of each
// document: `_id`, the first key of each projected path, and every field its filter and sort name.
// The backend decodes only those (sjson.UnmarshalFields): a find of a few fields of large documents
// decoded every field and dropped most. nil, for all fields, when the projection is empty or an
// exclusion, or the filter uses an operator that may read any field ($expr, $where, …).
func findFields(params *common.FindParams) []string {
	if params.Projection.Len() == 0 {
		return nil
	}

	projection, inclusion, err := common.ValidateProjection(params.Projection)
	if err != nil || !inclusion {
		return nil
	}

	fields := map[string]struct{}{"_id": {}}
	for _, key := range projection.Keys() {
		fields[firstKey(key)] = struct{}{}
	}

	for _, key := range params.Sort.Keys() {
		if key != "$natural" {
			fields[firstKey(key)] = struct{}{}
		}
	}

	if params.Filter != nil && !filterFields(params.Filter, fields) {
		return nil
	}

	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}

	return names
}

// filterFields adds the top-level fields a filter names, through $and, $or and $nor; false when it
// has any other top-level operator but $comment.
func filterFields(filter *types.Document, fields map[string]struct{}) bool {
	iter := filter.Iterator()
	defer iter.Close()

	for {
		key, value, err := iter.Next()
		if errors.Is(err, iterator.ErrIteratorDone) {
			return true
		}

		if err != nil {
			return false
		}

		switch key {
		case "$comment":
			continue
		case "$and", "$or", "$nor":
			clauses, ok := value.(*types.Array)
			if !ok {
				return false
			}

			for i := 0; i < clauses.Len(); i++ {
				clause, _ := clauses.Get(i)
				doc, ok := clause.(*types.Document)

				if !ok || !filterFields(doc, fields) {
					return false
				}
			}

			continue
		}

		if strings.HasPrefix(key, "$") {
			return false
		}

		fields[firstKey(key)] = struct{}{}
	}
}

// firstKey is a dotted path's top-level field.
func firstKey(path string) string {
	first, _, _ := strings.Cut(path, ".")
	return first
}
