// The monaco-yaml language worker, imported through a local file so Vite bundles it as a worker
// entry with `?worker` (monaco-yaml README, "Why doesn't it work with Vite?").
import 'monaco-yaml/yaml.worker.js';
