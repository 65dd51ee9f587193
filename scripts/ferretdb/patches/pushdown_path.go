// Added to FerretDB's SQLite backend by the catalog's build (server/database/embedded/build-ferretdb.ts).

package sqlite

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// An $or whose every clause is an equality with a scalar, or `$exists: false`, on one field path
// (top-level or dotted: "its records, or those without an owner") becomes a split of the prefilter
// into alternatives on that path's expression, each an index range, so that an index on the path
// (createIndex writes a dotted key as `->'a'->'b'`) is SEARCHed for each. The alternatives are
// disjoint (equal to one of the texts, an array, missing), so every branch is cut into one per
// alternative and the UNION ALL stays disjoint. They are a superset of what the clauses match
// (for a dotted path, a value reached through an array reads as missing), so the handler applies
// the filter as ever, and nothing else about the find (its sort, its limit) goes down with it.

// pushdownSegment is a segment of a path written into SQL as a label: no quote, not an array index.
var pushdownSegment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

type pushdownAlt struct {
	cond string
	args []any
}

// pathAlternatives returns the alternatives of an $or on one path, or false.
func pathAlternatives(v any) ([]pushdownAlt, bool) {
	arr, ok := v.(*types.Array)
	if !ok || arr.Len() == 0 {
		return nil, false
	}

	var path string
	var alts []pushdownAlt
	seen := map[string]bool{}

	for i := 0; i < arr.Len(); i++ {
		d, ok := must.NotFail(arr.Get(i)).(*types.Document)
		if !ok || d.Len() != 1 || (path != "" && d.Keys()[0] != path) {
			return nil, false
		}

		path = d.Keys()[0]

		clause, ok := pathClause(path, d.Values()[0])
		if !ok {
			return nil, false
		}

		for _, alt := range clause {
			if key := fmt.Sprint(alt.cond, alt.args); !seen[key] {
				seen[key] = true
				alts = append(alts, alt)
			}
		}
	}

	return alts, true
}

// pathClause: the alternatives of one clause on path, holding every document it matches.
func pathClause(path string, v any) ([]pushdownAlt, bool) {
	segments := strings.Split(path, ".")
	for _, s := range segments {
		if !pushdownSegment.MatchString(s) {
			return nil, false
		}
	}

	expr := metadata.DefaultColumn + "->'" + strings.Join(segments, "'->'") + "'"
	missing := pushdownAlt{cond: expr + " IS NULL"}

	if d, ok := v.(*types.Document); ok {
		switch {
		case d.Len() == 1 && d.Keys()[0] == "$exists" && d.Values()[0] == false:
			return []pushdownAlt{missing}, true
		case d.Len() == 1 && d.Keys()[0] == "$eq":
			v = d.Values()[0]
		default:
			return nil, false
		}
	}

	typ, texts := pushdownTexts(v)
	if typ == "" {
		return nil, false
	}

	args := make([]any, len(texts))
	for i, text := range texts {
		args[i] = text
	}

	alts := []pushdownAlt{
		{cond: expr + " IN (?" + strings.Repeat(", ?", len(texts)-1) + ")", args: args},
		{cond: fmt.Sprintf(`%[1]s >= '[' AND %[1]s < '\'`, expr)},
	}

	// Through an array on the way (MongoDB looks into each element), the expression is NULL.
	if len(segments) > 1 {
		alts = append(alts, missing)
	}

	return alts, true
}
