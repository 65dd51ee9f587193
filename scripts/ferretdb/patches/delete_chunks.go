// Added to FerretDB's SQLite backend by the catalog's build (server/database/embedded/build-ferretdb.ts).

package sqlite

import (
	"context"
	"fmt"
	"strings"

	"github.com/FerretDB/FerretDB/internal/util/fsql"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// deleteChunk bounds the ids one DELETE binds. FerretDB bound every matched document's id in a
// single statement, and SQLite takes at most 32,766 variables a statement, so a deleteMany of
// more documents (a version's parameters, when it is purged) failed with "too many SQL variables"
// and deleted none. As on MongoDB, a deleteMany is not atomic: a chunk that fails leaves the
// chunks before it deleted.
const deleteChunk = 10_000

// deleteInChunks deletes the rows whose column is one of args, deleteChunk at a time.
func deleteInChunks(ctx context.Context, db *fsql.DB, table, column string, args []any) (int64, error) {
	var deleted int64

	for start := 0; start < len(args); start += deleteChunk {
		chunk := args[start:min(start+deleteChunk, len(args))]
		q := fmt.Sprintf(`DELETE FROM %q WHERE %s IN (?%s)`, table, column, strings.Repeat(", ?", len(chunk)-1))

		res, err := db.ExecContext(ctx, q, chunk...)
		if err != nil {
			return deleted, lazyerrors.Error(err)
		}

		ra, err := res.RowsAffected()
		if err != nil {
			return deleted, lazyerrors.Error(err)
		}

		deleted += ra
	}

	return deleted, nil
}
