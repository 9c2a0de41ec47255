package rustfstest

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

type legacyStat struct {
	TotalSize   uint64 `json:"total_size"`
	NumVersions uint64 `json:"num_versions"`
	NumObjects  uint64 `json:"num_objects"`
}

type v2Transitions struct {
	TotalSize   uint64 `json:"totalSize"`
	NumVersions uint64 `json:"numVersions"`
	NumObjects  uint64 `json:"numObjects"`
}

type v2Tier struct {
	Name        string         `json:"name"`
	Type        string         `json:"type,omitempty"`
	Inventory   *v2Transitions `json:"inventory,omitempty"`
	Transitions v2Transitions  `json:"transitionsLast24h"`
}

type v2Stats struct {
	ContractVersion int            `json:"contractVersion"`
	Inventory       map[string]any `json:"inventory"`
	Activity        map[string]any `json:"activity"`
	Tiers           []v2Tier       `json:"tiers"`
}

// tierStats is GetTierInfo::call (docs/rustfs-wire.md §1.6): auth, then the query; ?tier= is a
// case-insensitive filter and must not be blank. RC answers the legacy map of
// seeded counters (tiers without activity are absent). GA answers the v2 body
// unless ?format=legacy; any other format is 400 (#7110).
func (e *Emulator) tierStats(c *call) *s3Error {
	if err := c.authorize("admin:ListTier"); err != nil {
		return err
	}
	q, err := parseAdminQuery(c.r.URL.RawQuery)
	if err != nil {
		return err
	}
	filter, filtered := q["tier"]
	if filtered && strings.TrimSpace(filter) == "" {
		return invalidArgument("tier is required")
	}
	format := c.r.URL.Query().Get("format")
	if e.mode == ModeGA && format != "" && format != "legacy" {
		return invalidArgument("unsupported tier-stats format")
	}
	match := func(name string) bool { return !filtered || strings.EqualFold(name, strings.TrimSpace(filter)) }
	if e.mode == ModeRC || format == "legacy" {
		return writeJSON(c, e.legacyStats(match))
	}
	return writeJSON(c, e.v2Stats(match))
}

func (e *Emulator) legacyStats(match func(string) bool) map[string]legacyStat {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[string]legacyStat{}
	for name, s := range e.stats {
		if match(name) {
			out[name] = legacyStat(s)
		}
	}
	return out
}

// v2Stats lists the union of configured tiers, tiers in the inventory and
// tiers with activity (zero counters without activity); per-tier inventory
// only when the status is accounted and the tier has an entry.
func (e *Emulator) v2Stats(match func(string) bool) v2Stats {
	e.mu.Lock()
	defer e.mu.Unlock()
	status, inv := e.inventoryLocked()
	names := map[string]string{}
	for n, t := range e.tiers {
		names[n] = t.Type
	}
	for n := range e.stats {
		if _, ok := names[n]; !ok {
			names[n] = ""
		}
	}
	for n := range inv {
		if _, ok := names[n]; !ok {
			names[n] = ""
		}
	}
	out := v2Stats{ContractVersion: 2, Tiers: []v2Tier{},
		Inventory: map[string]any{"status": status},
		Activity:  map[string]any{"status": "complete", "nodesReporting": 1, "nodesExpected": 1, "unavailableNodes": []string{}}}
	for n, typ := range names {
		if !match(n) {
			continue
		}
		t := v2Tier{Name: n, Type: typ, Transitions: v2Transitions(e.stats[n])}
		if c, ok := inv[n]; ok {
			t.Inventory = &c
		}
		out.Tiers = append(out.Tiers, t)
	}
	sort.Slice(out.Tiers, func(i, j int) bool { return out.Tiers[i].Name < out.Tiers[j].Name })
	return out
}

// ClearToken returns the rand= token clear-tier expects on day t (docs/rustfs-wire.md §1.7):
// the day, the English month name and the year inserted at bytes 3, 17, 23.
func ClearToken(t time.Time) string {
	s := "AGD1R25GI3I1GJGUGJFD7FBS4DFAASDF"
	s = s[:3] + strconv.Itoa(t.UTC().Day()) + s[3:]
	s = s[:17] + t.UTC().Month().String() + s[17:]
	return s[:23] + strconv.Itoa(t.UTC().Year()) + s[23:]
}

// clearTiers is ClearTier::call (docs/rustfs-wire.md §1.7): a strict query (only rand and force),
// auth, the daily token, then remove every tier under the §6 rules.
func (e *Emulator) clearTiers(c *call) *s3Error {
	rnd, force, err := parseClearQuery(c.r.URL.RawQuery)
	if err != nil {
		return err
	}
	if err := c.authorize("admin:SetTier"); err != nil {
		return err
	}
	if rnd != ClearToken(e.now()) {
		return invalidRequest("invalid clear-tier confirmation token")
	}
	for _, t := range e.Tiers() {
		if err := e.removable(c, t, force); err != nil {
			return tierErr("TierClearFailed", "tier clear failed. "+clearDetail(err))
		}
	}
	e.mu.Lock()
	e.tiers = map[string]*TierRecord{}
	e.mu.Unlock()
	return writeEmpty(c)
}

func clearDetail(err *s3Error) string {
	if err.status == http.StatusBadRequest || err.code == "TierNameBackendInUse" && err.message == "tier backend is not empty" {
		return "Specified remote backend is not empty"
	}
	if err.status == http.StatusConflict {
		return "Specified remote tier is already in use"
	}
	return strings.TrimPrefix(err.message, "tier remove failed. ")
}

func parseClearQuery(raw string) (rnd string, force bool, err *s3Error) {
	seen := map[string]bool{}
	for _, p := range splitQuery(raw) {
		k, v := p.key, p.value
		if k != "rand" && k != "force" {
			return "", false, invalidArgument("unknown clear-tier query parameter")
		}
		if seen[k] {
			return "", false, invalidArgument("duplicate clear-tier query parameter")
		}
		seen[k] = true
		if k == "rand" {
			rnd = v
			continue
		}
		if v != "true" && v != "false" {
			return "", false, invalidArgument("invalid force flag")
		}
		force = v == "true"
	}
	return rnd, force, nil
}
