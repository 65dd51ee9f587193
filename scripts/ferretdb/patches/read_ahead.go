// Added to FerretDB's handler by the catalog's build (server/database/embedded/build-ferretdb.ts).

package handler

import (
	"sync"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/iterator"
)

// readAheadDocuments bounds how many documents a find cursor makes before the client asks.
const readAheadDocuments = 1000

// readAheadItem is one result of the wrapped iterator's Next.
type readAheadItem struct {
	doc *types.Document
	err error
}

// readAheadIterator reads its iterator on a goroutine of its own, up to readAheadDocuments ahead.
// A cursor's documents were made only when a getMore asked for them: reading them from SQLite and
// parsing the stored JSON is most of a large read's cost, and the client decodes each batch before
// it asks for the next, so the two took turns. Now the next batch is made while the client
// decodes the last one.
type readAheadIterator struct {
	items chan readAheadItem
	done  chan struct{}
	once  sync.Once
	inner types.DocumentsIterator
}

// readAhead wraps iter; Close closes iter too.
func readAhead(iter types.DocumentsIterator) types.DocumentsIterator {
	r := &readAheadIterator{
		items: make(chan readAheadItem, readAheadDocuments),
		done:  make(chan struct{}),
		inner: iter,
	}

	go r.produce()

	return r
}

// produce reads the wrapped iterator until its end, an error or Close.
func (r *readAheadIterator) produce() {
	defer close(r.items)

	for {
		_, doc, err := r.inner.Next()

		select {
		case r.items <- readAheadItem{doc: doc, err: err}:
		case <-r.done:
			return
		}

		if err != nil {
			return
		}
	}
}

// Next implements iterator.Interface.
func (r *readAheadIterator) Next() (struct{}, *types.Document, error) {
	var unused struct{}

	select {
	case <-r.done:
		return unused, nil, iterator.ErrIteratorDone
	default:
	}

	select {
	case item, ok := <-r.items:
		if !ok {
			return unused, nil, iterator.ErrIteratorDone
		}

		return unused, item.doc, item.err
	case <-r.done:
		return unused, nil, iterator.ErrIteratorDone
	}
}

// Close implements iterator.Interface. The wrapped iterator may be in Next on the goroutine:
// iterators allow Close concurrently with Next.
func (r *readAheadIterator) Close() {
	r.once.Do(func() {
		close(r.done)
		r.inner.Close()
	})
}

// check interfaces
var (
	_ types.DocumentsIterator = (*readAheadIterator)(nil)
)
