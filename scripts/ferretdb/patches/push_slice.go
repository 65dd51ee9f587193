// Added to FerretDB's update operators by the catalog's build (server/database/embedded/build-ferretdb.ts).

package common

import (
	"fmt"

	"github.com/FerretDB/FerretDB/internal/handler/handlererrors"
	"github.com/FerretDB/FerretDB/internal/handler/handlerparams"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// pushSlice applies a `$push` with `$each` and `$slice` as MongoDB does: once the elements are
// appended, a negative `$slice` keeps the last that many, a positive one the first, zero none.
// FerretDB 1.24 accepted `$slice` and ignored it, so a list capped this way grew with every
// update (the catalog caps a version's list of recent writes so: tenancy/revisions.ts).
func pushSlice(command string, pushVal any, array *types.Array) (*types.Array, error) {
	pushDoc, ok := pushVal.(*types.Document)
	if !ok || !pushDoc.Has("$each") || !pushDoc.Has("$slice") {
		return array, nil
	}

	raw := must.NotFail(pushDoc.Get("$slice"))

	slice, err := handlerparams.GetWholeNumberParam(raw)
	if err != nil {
		return nil, NewUpdateError(
			handlererrors.ErrBadValue,
			fmt.Sprintf("The value for $slice must be an integer value but was given type: %s", handlerparams.AliasFromType(raw)),
			command,
		)
	}

	n := int64(array.Len())
	from, to := int64(0), n

	switch {
	case slice < 0 && -slice < n:
		from = n + slice
	case slice >= 0 && slice < n:
		to = slice
	}

	if from == 0 && to == n {
		return array, nil
	}

	kept := types.MakeArray(int(to - from))
	for i := from; i < to; i++ {
		kept.Append(must.NotFail(array.Get(int(i))))
	}

	return kept, nil
}
