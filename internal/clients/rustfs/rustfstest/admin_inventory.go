package rustfstest

// GA tier inventory (docs/rustfs-wire.md §1.6): the v2 tier-stats body
// reports what each tier holds from the data usage snapshot. The emulator's
// snapshot is exact and current: it counts the object versions marked
// transitioned to each tier (MarkTransitioned).

// Inventory statuses GA reports.
const (
	InventoryAccounted    = "accounted"
	InventoryNotAccounted = "not-accounted"
	InventoryUnavailable  = "unavailable"
)

// SetInventoryStatus makes GA tier-stats report status s (default
// InventoryAccounted). Per-tier inventory is reported only when it is
// accounted, as RustFS does.
func (e *Emulator) SetInventoryStatus(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.inventory = s
}

// inventoryLocked returns the inventory status and, when accounted, the
// per-tier counters of the transitioned object versions. e.mu is held.
func (e *Emulator) inventoryLocked() (string, map[string]v2Transitions) {
	status := e.inventory
	if status == "" {
		status = InventoryAccounted
	}
	if status != InventoryAccounted {
		return status, nil
	}
	out := map[string]v2Transitions{}
	for _, b := range e.buckets {
		for _, vs := range b.objects {
			counted := map[string]bool{}
			for _, o := range vs {
				if o.transitioned == "" || o.deleteMarker {
					continue
				}
				c := out[o.transitioned]
				c.NumVersions++
				c.TotalSize += uint64(len(o.body))
				if !counted[o.transitioned] {
					counted[o.transitioned] = true
					c.NumObjects++
				}
				out[o.transitioned] = c
			}
		}
	}
	return status, out
}
