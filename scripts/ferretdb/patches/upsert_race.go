// Added to FerretDB's handler by the catalog's build (server/database/embedded/build-ferretdb.ts).

package handler

import (
	"context"
	"errors"
	"sync"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
	"github.com/FerretDB/FerretDB/internal/util/lazyerrors"
)

// updateLocks holds one mutex per "database.collection".
var updateLocks sync.Map

// lockForUpdate makes a collection's `update` and `findAndModify` commands run one at a time and
// answers the unlock. FerretDB 1.24 reads a document, applies the update in Go and writes it
// back with nothing between: two `$inc`s of one document at once both read 1 and both wrote 2.
// MongoDB applies each update to a document atomically; so do these commands now. Inserts and
// deletes do not take the lock (neither reads what it writes), and SQLite writes one at a time
// anyway.
func lockForUpdate(db, collection string) func() {
	m, _ := updateLocks.LoadOrStore(db+"."+collection, new(sync.Mutex))
	mu := m.(*sync.Mutex)
	mu.Lock()

	return mu.Unlock
}

// isUpsertRace tells an upsert whose insert met a document of its `_id` that a plain insert put
// there after this upsert's query found none. MongoDB (4.2 and later) retries such an upsert on
// the server, so clients never see it; FerretDB 1.24 answered E11000. Retried once here too: the
// query then finds the document and updates it.
func isUpsertRace(upsert bool, err error) bool {
	var be *backends.Error
	return upsert && errors.As(err, &be) && be.Code() == backends.ErrorCodeInsertDuplicateID
}

// upsertAgain runs one update of an `update` command again, as updateDocument runs it.
func (h *Handler) upsertAgain(ctx context.Context, c backends.Collection, u *common.Update) (*common.UpdateResult, error) {
	var qp backends.QueryParams
	if !h.DisablePushdown {
		qp.Filter = u.Filter
	}

	res, err := c.Query(ctx, &qp)
	if err != nil {
		return nil, lazyerrors.Error(err)
	}

	closer := iterator.NewMultiCloser()
	defer closer.Close()

	closer.Add(res.Iter)

	iter := common.FilterIterator(res.Iter, closer, u.Filter)

	if !u.Multi {
		iter = common.LimitIterator(iter, closer, 1)
	}

	return common.UpdateDocument(ctx, c, "update", iter, u)
}
