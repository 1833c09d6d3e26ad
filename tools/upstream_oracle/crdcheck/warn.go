package main

import (
	"context"

	"k8s.io/apiserver/pkg/warning"
)

func warningCtx(ctx context.Context, r warning.Recorder) context.Context {
	return warning.WithWarningRecorder(ctx, r)
}
