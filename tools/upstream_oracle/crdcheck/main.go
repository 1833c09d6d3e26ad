// crdcheck: kube-apiserver's create path for CRDs (k8s.io/apiextensions-apiserver v0.35.0, vendored by
// kubectl-validate), as a local oracle: strict decode, FillObjectMetaSystemFields, rest.BeforeCreate.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/install"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"sigs.k8s.io/yaml"
)

type rec struct{ w []string }

func (r *rec) AddWarning(agent, text string) { r.w = append(r.w, text) }

type out struct {
	File     string   `json:"file"`
	Index    int      `json:"index"`
	Name     string   `json:"name"`
	Valid    bool     `json:"valid"`
	Message  string   `json:"message"`
	Warnings []string `json:"warnings"`
	Causes   []string `json:"causes"`
}

func main() {
	scheme := runtime.NewScheme()
	install.Install(scheme)
	codecs := serializer.NewCodecFactory(scheme, serializer.EnableStrict)
	strict := codecs.UniversalDecoder()
	lax := serializer.NewCodecFactory(scheme).UniversalDecoder()
	strategy := customresourcedefinition.NewStrategy(scheme)
	enc := json.NewEncoder(os.Stdout)
	for _, file := range os.Args[1:] {
		data, err := os.ReadFile(file)
		if err != nil {
			panic(err)
		}
		reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
		index := -1
		for {
			doc, err := reader.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, file, err)
				break
			}
			index++
			js, err := yaml.YAMLToJSON(doc)
			if err != nil {
				enc.Encode(out{File: file, Index: index, Message: "YAML: " + err.Error()})
				continue
			}
			var head struct {
				Kind       string `json:"kind"`
				APIVersion string `json:"apiVersion"`
			}
			if json.Unmarshal(js, &head) != nil || head.Kind != "CustomResourceDefinition" {
				continue
			}
			gv, _ := schema.ParseGroupVersion(head.APIVersion)
			obj, gvk, err := strict.Decode(js, nil, nil)
			if err != nil {
				if se, ok := runtime.AsStrictDecodingError(err); ok && obj != nil {
					name := ""
					if c, ok := obj.(*apiextensions.CustomResourceDefinition); ok {
						name = c.Name
					}
					msg := apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", gvk.Kind, gvk.Version, gvk.Kind, se)).Error()
					enc.Encode(out{File: file, Index: index, Name: name, Message: msg})
					continue
				}
				obj2, _, err2 := lax.Decode(js, nil, nil)
				if err2 != nil || obj2 == nil {
					msg := apierrors.NewBadRequest(fmt.Sprintf("%s in version %q cannot be handled as a %s: %v", head.Kind, gv.Version, head.Kind, err)).Error()
					enc.Encode(out{File: file, Index: index, Message: msg})
					continue
				}
				obj = obj2
			}
			crd, ok := obj.(*apiextensions.CustomResourceDefinition)
			if !ok {
				enc.Encode(out{File: file, Index: index, Message: fmt.Sprintf("DECODE: not internal: %T", obj)})
				continue
			}
			r := &rec{}
			ctx := genericapirequest.WithNamespace(genericapirequest.NewContext(), "")
			ctx = warningCtx(ctx, r)
			rest.FillObjectMetaSystemFields(crd)
			err = rest.BeforeCreate(strategy, ctx, crd)
			o := out{File: file, Index: index, Name: crd.Name, Valid: err == nil, Warnings: r.w}
			if err != nil {
				o.Message = err.Error()
				if se, ok := err.(*apierrors.StatusError); ok && se.ErrStatus.Details != nil {
					for _, c := range se.ErrStatus.Details.Causes {
						o.Causes = append(o.Causes, c.Field+": "+c.Message)
					}
				}
			}
			enc.Encode(o)
		}
	}
}
