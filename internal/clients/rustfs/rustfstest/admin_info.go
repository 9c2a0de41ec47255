package rustfstest

// actionServerInfo is the permission of the info route (docs/rustfs-wire.md §15.2).
const actionServerInfo = "admin:ServerInfo"

// countJSON is madmin's Buckets, Objects, Versions and DeleteMarkers.
type countJSON struct {
	Count uint64  `json:"count"`
	Error *string `json:"error"`
}

// infoMessageJSON is madmin's InfoMessage. Every field is an Option in
// RustFS and serialised as null when absent; the emulator fills the mode, the
// deployment ID and the counts, and leaves what it does not model null
// (docs/rustfs-wire.md §15.3).
type infoMessageJSON struct {
	Mode          string     `json:"mode"`
	Domain        []string   `json:"domain"`
	Region        *string    `json:"region"`
	SQSARN        []string   `json:"sqsARN"`
	DeploymentID  *string    `json:"deploymentID"`
	Buckets       countJSON  `json:"buckets"`
	Objects       countJSON  `json:"objects"`
	Versions      countJSON  `json:"versions"`
	DeleteMarkers countJSON  `json:"deletemarkers"`
	Usage         *struct{}  `json:"usage"`
	Services      *struct{}  `json:"services"`
	Backend       *struct{}  `json:"backend"`
	Servers       []struct{} `json:"servers"`
	Pools         *struct{}  `json:"pools"`
}

type adminDiscoveryJSON struct {
	RuntimeCapabilities string `json:"runtimeCapabilities"`
	ClusterSnapshot     string `json:"clusterSnapshot"`
	ExtensionsCatalog   string `json:"extensionsCatalog"`
}

// serverInfoJSON is ServerInfoResponse, the wrapper RustFS answers since
// 1.0.0-beta.9 (docs/rustfs-wire.md §15.3, §15.4).
type serverInfoJSON struct {
	Info           infoMessageJSON    `json:"info"`
	AdminDiscovery adminDiscoveryJSON `json:"admin_discovery"`
	BitrotSelftest string             `json:"bitrotSelftest"`
}

// WithDeploymentID sets the deployment ID the info route reports (default:
// a random UUID per emulator). Two emulators with one ID pose as two
// endpoints of one RustFS; "" makes the route answer null, as RustFS before
// 1.0.0-beta.5 did (docs/rustfs-wire.md §15.4).
func WithDeploymentID(id string) Option { return func(e *Emulator) { e.deploymentID = id } }

// DeploymentID returns the deployment ID the info route reports.
func (e *Emulator) DeploymentID() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.deploymentID
}

// newDeploymentID returns a random version 4 UUID in RustFS's lower-case
// hyphenated form (docs/rustfs-wire.md §15.3).
func newDeploymentID() string { return uuid() }

// serverInfo is ServerInfoHandler::call: the admin:ServerInfo permission
// (403 AccessDenied without it), then the wrapper with info.deploymentID
// (docs/rustfs-wire.md §15.2, §15.3). Both modes answer alike (§15.4).
func (e *Emulator) serverInfo(c *call) *s3Error {
	if err := c.authorize(actionServerInfo); err != nil {
		return err
	}
	e.mu.Lock()
	info := infoMessageJSON{Mode: "online", Buckets: countJSON{Count: uint64(len(e.buckets))}}
	for _, b := range e.buckets {
		info.Objects.Count += uint64(len(b.keys()))
		info.Versions.Count += uint64(b.versionCount())
	}
	if e.deploymentID != "" {
		id := e.deploymentID
		info.DeploymentID = &id
	}
	e.mu.Unlock()
	return writeJSON(c, serverInfoJSON{Info: info, BitrotSelftest: "passed", AdminDiscovery: adminDiscoveryJSON{
		RuntimeCapabilities: adminPrefix + "/v4/runtime/capabilities",
		ClusterSnapshot:     adminPrefix + "/v4/cluster/snapshot",
		ExtensionsCatalog:   adminPrefix + "/v4/extensions/catalog",
	}})
}
