// Added to FerretDB's SQLite backend by the catalog's build (server/database/embedded/build-ferretdb.ts).

package sqlite

import (
	"context"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/fsql"
)

// newFieldsQueryIterator is newQueryIterator whose documents hold only the top-level `fields` a
// find reads (backends.QueryParams.Fields; nil: all of them).
func newFieldsQueryIterator(ctx context.Context, rows *fsql.Rows, onlyRecordIDs bool, fields []string) types.DocumentsIterator {
	iter := newQueryIterator(ctx, rows, onlyRecordIDs).(*queryIterator)

	if fields != nil {
		iter.fields = make(map[string]struct{}, len(fields))
		for _, field := range fields {
			iter.fields[field] = struct{}{}
		}
	}

	return iter
}
