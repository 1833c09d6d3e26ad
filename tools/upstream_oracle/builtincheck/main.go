// builtincheck: decode built-in objects (YAML documents) as kube-apiserver's JSON serializer does (strict),
// with the k8s.io/api types kubectl-validate a97ccfac vendors (v0.35.0); prints each document's decode error.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	kjson "k8s.io/apimachinery/pkg/runtime/serializer/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/yaml"
)

func main() {
	ser := kjson.NewSerializerWithOptions(kjson.DefaultMetaFactory, scheme.Scheme, scheme.Scheme, kjson.SerializerOptions{Strict: true})
	enc := json.NewEncoder(os.Stdout)
	for _, file := range os.Args[1:] {
		data, _ := os.ReadFile(file)
		reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		index := -1
		for {
			doc, err := reader.Read()
			if err == io.EOF {
				break
			}
			index++
			js, err := yaml.YAMLToJSON(doc)
			if err != nil {
				enc.Encode(map[string]any{"index": index, "message": "YAML: " + err.Error()})
				continue
			}
			_, gvk, err := ser.Decode(js, nil, nil)
			msg := ""
			if err != nil {
				if se, ok := runtime.AsStrictDecodingError(err); ok {
					err = se
				}
				kind, version := "", ""
				if gvk != nil {
					kind, version = gvk.Kind, gvk.Version
				}
				msg = fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", kind, version, kind, err)
			}
			enc.Encode(map[string]any{"index": index, "message": msg})
		}
	}
}
