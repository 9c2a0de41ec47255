module github.com/crossplane-contrib/provider-rustfs/hack/tools/xpkgtool

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/google/go-containerregistry v0.21.9
	go.yaml.in/yaml/v3 v3.0.4
)

require (
	github.com/klauspost/compress v1.19.1 // indirect
	github.com/opencontainers/go-digest v1.0.0 // indirect
	github.com/opencontainers/image-spec v1.1.1 // indirect
)
