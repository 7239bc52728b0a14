#!/usr/bin/env bash
# Offline checks of the Kubernetes manifests (deploy/kubernetes); no cluster and no network
# needed. Run by scripts/check-deploy.sh, and on its own:
#
#   scripts/check-kubernetes.sh
#
# 1. Every kustomization (the base, the Jobs, every overlay and its jobs/) renders with
#    `kubectl kustomize`; components are rendered through the overlays that use them.
# 2. Every rendered object validates against the Kubernetes schemas that kubernetes-validate
#    (PyPI) bundles, strictly (no unknown fields), for the oldest Kubernetes the manifests
#    are for and the newest it knows. Custom resources are not in its bundle: the kinds of
#    CloudNativePG listed in KNOWN_CUSTOM_KINDS are skipped, named in the output; any other
#    kind it does not know fails.
# 3. checkov (PyPI) passes on everything rendered, offline (--skip-download), with the
#    skipped checks below, each with its reason.
# 4. The manifests agree with Tools/StackKit/ServiceTable.swift (parsed by scripts/stacktable.py,
#    as check-deploy's compose checks do) and with the compose file: every service a
#    Deployment running it, with its port as containerPort, Service port, probes' port and
#    COMMONS_PORT, a PodDisruptionBudget and a HorizontalPodAutoscaler; the environment of
#    each service docker-compose.yml's (less COMMONS_TRUSTED_PROXIES, see docs/operations.md),
#    every variable one docs/configuration.md documents, every secret a secretKeyRef and no
#    Secret in the manifests; the non-root, read-only security context everywhere; the data
#    directory on an emptyDir; the Jobs running `commons accounts create-admin`,
#    `commons catalog import` and `commons keys rewrap` on the stack's image. The gateway's
#    nginx.conf is exactly what `scripts/gateway-conf.sh --kubernetes commons` writes, passes
#    `nginx -t`, names StackKit's services and ports, and is the one the gateway mounts.
# 5. observability/prometheus.yml: the jobs of deploy/observability/prometheus.yml, each the
#    pods of its StackKit service on its port; promtool checks it (Debian's promtool has no
#    Kubernetes discovery, so with static targets in its place).
# Exits non-zero on the first failing check, saying which.
set -euo pipefail
cd "$(dirname "$0")/.."

fail() { echo "check-kubernetes: FAILED: $*" >&2; exit 1; }
started=$SECONDS
took() { echo "($((SECONDS - started))s)"; }
root=deploy/kubernetes
work=$(mktemp -d /tmp/commons-check-kubernetes.XXXXXX)
trap 'rm -rf "$work"' EXIT

command -v kubectl >/dev/null || fail "kubectl not found (1.27 or later renders the kustomizations: https://kubernetes.io/docs/tasks/tools/)"
# Components and `labels` need kustomize 5 (kubectl 1.27 and later).
kustomize_version=$(kubectl version --client 2>/dev/null | sed -n 's/^Kustomize Version: v\([0-9]*\).*/\1/p')
[ "${kustomize_version:-0}" -ge 5 ] || fail "kubectl's kustomize is older than v5 (kubectl 1.27 or later needed)"
python3 -c 'import kubernetes_validate' 2>/dev/null || fail "kubernetes-validate not found (scripts/setup.sh test)"
command -v checkov >/dev/null || fail "checkov not found (scripts/setup.sh test)"

# 1. Render every kustomization (not the components, which render only inside one).
mkdir -p "$work/rendered"
kustomizations=()
while IFS= read -r file; do
  grep -qE '^kind:[[:space:]]*Component' "$file" && continue
  kustomizations+=("$(dirname "$file")")
done < <(find "$root" -name kustomization.yaml | sort)
[ ${#kustomizations[@]} -ge 6 ] || fail "expected the base, the Jobs and two overlays with their jobs/ in $root, found ${kustomizations[*]}"
for dir in "${kustomizations[@]}"; do
  name=${dir#"$root"/}
  kubectl kustomize "$dir" >"$work/rendered/${name//\//-}.yaml" 2>"$work/kustomize.log" \
    || { cat "$work/kustomize.log" >&2; fail "kubectl kustomize $dir"; }
done
echo "check-kubernetes: ${#kustomizations[@]} kustomizations render (${kustomizations[*]#"$root"/}) $(took)"

# 2. Kubernetes' schemas.
python3 - "$work/rendered" <<'PY' || fail "rendered manifests do not validate against the Kubernetes schemas"
import glob, os, sys, yaml
import kubernetes_validate

# Custom resources, whose schemas come with their operator, not with Kubernetes.
KNOWN_CUSTOM_KINDS = {
    ("postgresql.cnpg.io/v1", "Cluster"): "CloudNativePG's CRD (components/cloudnativepg)",
    ("postgresql.cnpg.io/v1", "ScheduledBackup"): "CloudNativePG's CRD (components/cloudnativepg)",
}
# The oldest Kubernetes the manifests are for (topologySpreadConstraints' matchLabelKeys is
# on by default from 1.27; 1.30 is the oldest release still widely supported), and the
# newest whose schemas kubernetes-validate carries.
versions = ["1.30.0", kubernetes_validate.latest_version()]
problems, skipped, count = [], set(), 0
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.yaml"))):
    for doc in yaml.safe_load_all(open(path)):
        if not doc:
            continue
        kind = (doc.get("apiVersion"), doc.get("kind"))
        where = f"{os.path.basename(path)}: {doc.get('kind')} {doc.get('metadata', {}).get('name')}"
        for version in versions:
            try:
                kubernetes_validate.validate(doc, version, strict=True)
            except kubernetes_validate.SchemaNotFoundError:
                if kind in KNOWN_CUSTOM_KINDS:
                    skipped.add(kind)
                else:
                    problems.append(f"{where}: Kubernetes {version} has no {kind[0]} {kind[1]}")
            except kubernetes_validate.ValidationError as error:
                problems.append(f"{where} (Kubernetes {version}): {'.'.join(map(str, error.path))}: {error.message}")
        count += 1
for p in problems:
    print("check-kubernetes: " + p, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-kubernetes: {count} rendered objects valid against Kubernetes {' and '.join(versions)} (kubernetes-validate, strict)")
for kind in sorted(skipped):
    print(f"check-kubernetes:   not validated: {kind[0]} {kind[1]}, {KNOWN_CUSTOM_KINDS[kind]}, not in kubernetes-validate's bundle")
PY
echo "check-kubernetes: schemas $(took)"

# 3. checkov, offline. Each skipped check, and why:
#   CKV_K8S_43 (image by digest): the Commons image is built by whoever deploys it
#     (deploy/Dockerfile); an overlay pins the tag it pushed (kustomize's `images` can pin a
#     digest too), and no digest can be written here ahead of the build.
#   CKV_K8S_35 (secrets as files, not environment variables): COMMONS_EVENT_STORE, the log's
#     URL with its password, has no _FILE form, and the issue asks for every secret as a
#     secretKeyRef in the same way; no value is in the manifests.
checkov_skips=CKV_K8S_43,CKV_K8S_35
checkov -d "$work/rendered" --framework kubernetes --skip-download --compact \
  --skip-check "$checkov_skips" >"$work/checkov.log" 2>&1 \
  || { grep -B2 -A10 'FAILED for' "$work/checkov.log" >&2 || cat "$work/checkov.log" >&2; fail "checkov finds problems in the rendered manifests"; }
summary=$(grep -Eo 'Passed checks: [0-9]+, Failed checks: [0-9]+' "$work/checkov.log" | head -n 1 || true)
echo "check-kubernetes: checkov passes (${summary:-no summary}; skipped: $checkov_skips) $(took)"

# 4. The gateway's configuration: generated, valid, and StackKit's services.
scripts/gateway-conf.sh --kubernetes commons >"$work/gateway.conf" || fail "scripts/gateway-conf.sh --kubernetes cannot rewrite deploy/nginx.conf"
diff "$work/gateway.conf" "$root/base/gateway/nginx.conf" >&2 \
  || fail "$root/base/gateway/nginx.conf differs from what scripts/gateway-conf.sh --kubernetes commons writes (run it and commit the result)"
# Debian's nginx (1.22) predates `resolve` and would look the names up at load time: the
# upstream servers and the resolver go on 127.0.0.1 for `nginx -t`, as check-deploy does.
sed -E 's/^([[:space:]]*server[[:space:]]+)[a-z.-]+(:[0-9]+)[[:space:]]+resolve([[:space:];])/\1127.0.0.1\2\3/;
        s/^([[:space:]]*resolver[[:space:]]+)[a-z.-]+([[:space:]])/\1127.0.0.1\2/' \
  "$root/base/gateway/nginx.conf" >"$work/nginx-t.conf"
nginx=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx" ] || fail "nginx not found (apt-get install -y --no-install-recommends nginx-light)"
"$nginx" -t -q -p "$work/" -e stderr -c "$work/nginx-t.conf" -g "pid $work/nginx.pid;" \
  || fail "nginx -t rejects $root/base/gateway/nginx.conf"
echo "check-kubernetes: $root/base/gateway/nginx.conf is what gateway-conf.sh --kubernetes writes, and nginx -t passes"

python3 - "$work/rendered" "$root" <<'PY' || fail "the Kubernetes manifests disagree with Tools/StackKit, docker-compose.yml or docs/configuration.md"
import glob, os, re, sys, yaml
sys.path.insert(0, "scripts")
import stacktable

rendered, root = sys.argv[1:3]
services = stacktable.services()
problems = []

def load(name):
    return [d for d in yaml.safe_load_all(open(os.path.join(rendered, name + ".yaml"))) if d]

# The variables docs/configuration.md documents (every `NAME` in its tables).
documented = set(re.findall(r'`([A-Z][A-Z0-9_]*[A-Z0-9])`', open("docs/configuration.md").read()))
# What compose gives each service (docker-compose.yml), less what names Docker things that
# have no fixed counterpart here: the gateway's address (docs/operations.md, "Kubernetes").
compose = yaml.safe_load(open("docker-compose.yml"))["services"]
not_in_kubernetes = {"COMMONS_TRUSTED_PROXIES"}
secret_variables = {"COMMONS_EVENT_STORE", "COMMONS_KEY_VAULT_SECRET", "COMMONS_KEY_VAULT_PREVIOUS_SECRET",
                    "COMMONS_SIGNING_KEY_SECRET"}

def pod_spec(obj):
    return obj["spec"]["template"]["spec"]

def environment(container, config_maps):
    """{name: source} of a container: a ConfigMap's keys through envFrom, then env."""
    found = {}
    for source in container.get("envFrom", []):
        ref = source.get("configMapRef", {}).get("name")
        if ref not in config_maps:
            problems.append(f"{container['name']}: envFrom names {ref}, which is not in the manifests")
            continue
        found.update({k: ("configMap", v) for k, v in (config_maps[ref].get("data") or {}).items()})
        if "secretRef" in source:
            problems.append(f"{container['name']}: secrets come one by one as secretKeyRef, not envFrom")
    for entry in container.get("env", []):
        if "valueFrom" in entry:
            found[entry["name"]] = ("secret", entry["valueFrom"].get("secretKeyRef")) if "secretKeyRef" in entry["valueFrom"] else ("other", None)
        else:
            found[entry["name"]] = ("value", entry.get("value"))
    return found

def check_security(where, spec):
    pod = spec.get("securityContext", {})
    if not pod.get("runAsNonRoot") or pod.get("seccompProfile", {}).get("type") != "RuntimeDefault":
        problems.append(f"{where}: the pod needs runAsNonRoot and seccompProfile RuntimeDefault")
    if spec.get("automountServiceAccountToken") is not False:
        problems.append(f"{where}: automountServiceAccountToken should be false")
    for container in spec.get("containers", []) + spec.get("initContainers", []):
        context = container.get("securityContext", {})
        if not (context.get("readOnlyRootFilesystem") is True and context.get("allowPrivilegeEscalation") is False
                and context.get("capabilities", {}).get("drop") == ["ALL"] and context.get("runAsNonRoot") is True
                and context.get("seccompProfile", {}).get("type") == "RuntimeDefault"):
            problems.append(f"{where}: container {container['name']} needs a read-only root, no privilege escalation, "
                            f"every capability dropped, non-root and seccomp RuntimeDefault")
        if not container.get("resources", {}).get("requests") or not container.get("resources", {}).get("limits"):
            problems.append(f"{where}: container {container['name']} needs resource requests and limits")

def check_variables(where, env):
    for name, (kind, value) in env.items():
        if name not in documented:
            problems.append(f"{where}: {name} is not a variable docs/configuration.md documents")
        if name in secret_variables and kind != "secret":
            problems.append(f"{where}: {name} must come from a Secret (secretKeyRef), not {kind}")
        if kind in ("value", "configMap") and value and re.search(r'://[^/\s]*:[^/\s]*@', str(value)):
            problems.append(f"{where}: {name} holds credentials in the manifests")

stacks = [os.path.basename(p)[:-5] for p in sorted(glob.glob(os.path.join(rendered, "*.yaml")))
          if not (os.path.basename(p) == "jobs.yaml" or p.endswith("-jobs.yaml"))]
for stack in stacks:
    objects = load(stack)
    by_kind = {}
    for obj in objects:
        by_kind.setdefault(obj["kind"], {})[obj["metadata"]["name"]] = obj
    config_maps = by_kind.get("ConfigMap", {})
    if "Secret" in by_kind:
        problems.append(f"{stack}: Secrets {sorted(by_kind['Secret'])} in the manifests; operators create them (docs/operations.md)")
    deployments = by_kind.get("Deployment", {})
    for name in sorted(set(n for n, d in deployments.items()
                           if d["metadata"].get("labels", {}).get("app.kubernetes.io/component") == "service") - set(services)):
        problems.append(f"{stack}: Deployment {name} is not a StackKit service")
    commons_images, event_store = set(), None
    for name, (port, _) in services.items():
        where = f"{stack}: {name}"
        deployment = deployments.get(name)
        if deployment is None:
            problems.append(f"{where}: no Deployment"); continue
        spec = pod_spec(deployment)
        check_security(where, spec)
        containers = [c for c in spec["containers"] if c["name"] == "commons"]
        if len(containers) != 1:
            problems.append(f"{where}: expected one container named commons"); continue
        container = containers[0]
        commons_images.add(container.get("image"))
        if container.get("args") != [name] or container.get("command"):
            problems.append(f"{where}: the container should run the image with args [{name}]")
        ports = {p.get("name"): p["containerPort"] for p in container.get("ports", [])}
        if ports != {"http": port}:
            problems.append(f"{where}: containerPort should be {port}, named http; is {ports}")
        for probe, path in (("readinessProbe", "/health/ready"), ("livenessProbe", "/health/live"), ("startupProbe", None)):
            get = container.get(probe, {}).get("httpGet", {})
            if not get or (path and get.get("path") != path) or get.get("port") not in ("http", port):
                problems.append(f"{where}: {probe} should GET {path or 'a health path'} on port {port} (or http), has {get}")
        env = environment(container, config_maps)
        check_variables(where, env)
        if env.get("COMMONS_PORT") != ("value", str(port)):
            problems.append(f"{where}: COMMONS_PORT should be {port}, is {env.get('COMMONS_PORT')}")
        compose_env = compose.get(name, {}).get("environment", {})
        wanted = set(compose_env) - not_in_kubernetes
        if set(env) != wanted:
            problems.append(f"{where}: environment differs from docker-compose.yml's: missing {sorted(wanted - set(env))}, "
                            f"extra {sorted(set(env) - wanted)}")
        if name == "accounts":
            event_store = env.get("COMMONS_EVENT_STORE")
        data_dir = env.get("COMMONS_DATA_DIR", (None, None))[1]
        mounts = {m["mountPath"]: m["name"] for m in container.get("volumeMounts", [])}
        volumes = {v["name"]: v for v in spec.get("volumes", [])}
        if data_dir not in mounts or "emptyDir" not in volumes.get(mounts[data_dir], {}):
            problems.append(f"{where}: COMMONS_DATA_DIR ({data_dir}) should be an emptyDir volume")
        service = by_kind.get("Service", {}).get(name)
        if service is None:
            problems.append(f"{where}: no Service")
        else:
            service_ports = [(p["port"], p.get("targetPort")) for p in service["spec"].get("ports", [])]
            if service_ports not in ([(port, "http")], [(port, port)]):
                problems.append(f"{where}: the Service should have port {port} to the container's, has {service_ports}")
            if service["spec"].get("selector") != deployment["spec"]["selector"]["matchLabels"]:
                problems.append(f"{where}: the Service selects other pods than the Deployment runs")
            if service["spec"].get("clusterIP") != "None":
                problems.append(f"{where}: the Service should be headless (the gateway spreads requests over its pods)")
        budget = by_kind.get("PodDisruptionBudget", {}).get(name)
        if not budget or budget["spec"].get("selector", {}).get("matchLabels") != deployment["spec"]["selector"]["matchLabels"]:
            problems.append(f"{where}: no PodDisruptionBudget for its pods")
        autoscaler = by_kind.get("HorizontalPodAutoscaler", {}).get(name)
        if not autoscaler or autoscaler["spec"]["scaleTargetRef"] != {"apiVersion": "apps/v1", "kind": "Deployment", "name": name}:
            problems.append(f"{where}: no HorizontalPodAutoscaler for its Deployment")
    # The gateway: nginx ≥ 1.27.3 (upstream `resolve`) with the generated nginx.conf, on 8080.
    gateway = deployments.get("gateway")
    if gateway is None:
        problems.append(f"{stack}: no gateway Deployment")
    else:
        spec = pod_spec(gateway)
        check_security(f"{stack}: gateway", spec)
        nginx = [c for c in spec["containers"] if c["name"] == "nginx"]
        image = nginx[0].get("image", "") if nginx else ""
        version = re.search(r'nginx(?:-unprivileged)?:(\d+)\.(\d+)(?:\.(\d+))?', image)
        if not version or tuple(int(v or 0) for v in version.groups()) < (1, 27, 3):
            problems.append(f"{stack}: the gateway's image should be nginx 1.27.3 or later (upstream `resolve`), not {image!r}")
        configs = [v["configMap"]["name"] for v in spec.get("volumes", []) if "configMap" in v]
        generated = open(os.path.join(root, "base", "gateway", "nginx.conf")).read()
        if not any((config_maps.get(c, {}).get("data") or {}).get("nginx.conf") == generated for c in configs):
            problems.append(f"{stack}: the gateway does not mount {root}/base/gateway/nginx.conf")
        ports = [p["containerPort"] for c in nginx for p in c.get("ports", [])]
        service = by_kind.get("Service", {}).get("gateway")
        if ports != [8080] or not service or [p["port"] for p in service["spec"]["ports"]] != [8080]:
            problems.append(f"{stack}: the gateway should listen on 8080 behind a Service on 8080")
        for kind in ("PodDisruptionBudget", "HorizontalPodAutoscaler"):
            if "gateway" not in by_kind.get(kind, {}):
                problems.append(f"{stack}: no {kind} for the gateway")
        for c in spec.get("initContainers", []):
            commons_images.add(c.get("image"))
    if len(commons_images) != 1:
        problems.append(f"{stack}: the services run different images: {sorted(map(str, commons_images))}")
    # The Jobs beside this stack (its jobs/ kustomization) run on its image.
    jobs_name = "jobs" if stack == "base" else stack + "-jobs"
    if not os.path.exists(os.path.join(rendered, jobs_name + ".yaml")):
        problems.append(f"{stack}: no jobs/ kustomization beside it")
        continue
    jobs = {j["metadata"]["name"]: j for j in load(jobs_name) if j["kind"] == "Job"}
    commands = {"create-admin": "commons accounts create-admin", "import-catalog": "commons catalog import Data/catalog.json",
                "rewrap-keys": "commons keys rewrap"}
    if set(jobs) != set(commands):
        problems.append(f"{jobs_name}: Jobs {sorted(jobs)}, expected {sorted(commands)}")
    for name, job in jobs.items():
        spec = pod_spec(job)
        check_security(f"{jobs_name}: {name}", spec)
        container = spec["containers"][0]
        line = " ".join(container.get("command", []) + container.get("args", []))
        if commands.get(name, "?") not in line:
            problems.append(f"{jobs_name}: {name} should run `{commands.get(name)}`, runs `{line}`")
        if container.get("image") not in commons_images:
            problems.append(f"{jobs_name}: {name} runs {container.get('image')}, the stack {sorted(map(str, commons_images))}")
        env = environment(container, {})
        check_variables(f"{jobs_name}: {name}", env)
        if "COMMONS_EVENT_STORE" not in env:
            problems.append(f"{jobs_name}: {name} has no COMMONS_EVENT_STORE")
        # The Job's log is the stack's: the same Secret reference as the services'.
        if env.get("COMMONS_EVENT_STORE") != event_store:
            problems.append(f"{jobs_name}: {name} reads COMMONS_EVENT_STORE from {env.get('COMMONS_EVENT_STORE')}, "
                            f"the services from {event_store}")
    if not os.path.exists("Data/catalog.json"):
        problems.append("Data/catalog.json, which the image carries for the import-catalog Job, is missing")

# The gateway's upstream servers: StackKit's services on their ports, in the namespace.
conf = re.sub(r'#.*', '', open(os.path.join(root, "base", "gateway", "nginx.conf")).read())
servers = dict(re.findall(r'server\s+([a-z-]+)\.commons\.svc\.cluster\.local:(\d+)\s+resolve', conf))
if {k: int(v) for k, v in servers.items()} != {n: p for n, (p, _) in services.items()}:
    problems.append(f"gateway nginx.conf: upstream servers {servers} are not StackKit's services and ports")

for p in problems:
    print("check-kubernetes: " + p, file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-kubernetes: {len(stacks)} stacks agree with StackKit ({len(services)} services), docker-compose.yml's "
      f"environment and docs/configuration.md; secrets only as secretKeyRef; Jobs on each stack's image")
PY

# 5. The Prometheus scrape configuration.
python3 - "$root/observability/prometheus.yml" deploy/observability/prometheus.yml "$work/prometheus.yml" <<'PY' \
  || fail "$root/observability/prometheus.yml disagrees with StackKit or deploy/observability"
import sys, yaml
sys.path.insert(0, "scripts")
import stacktable

ours, compose_config, out = sys.argv[1:4]
services = {name: port for name, (port, _) in stacktable.services().items()}
config = yaml.safe_load(open(ours))
problems = []
jobs = {}
for job in config["scrape_configs"]:
    keep = {tuple(r.get("source_labels", [])): r.get("regex") for r in job.get("relabel_configs", []) if r.get("action") == "keep"}
    jobs[job["job_name"]] = (keep.get(("__meta_kubernetes_pod_label_app_kubernetes_io_name",)),
                             keep.get(("__meta_kubernetes_pod_container_port_number",)))
    if [sd.get("role") for sd in job.get("kubernetes_sd_configs", [])] != ["pod"]:
        problems.append(f"job {job['job_name']}: should discover pods (kubernetes_sd_configs, role pod)")
    # promtool here has no Kubernetes discovery: check the rest with a static target.
    job.pop("kubernetes_sd_configs", None)
    job["static_configs"] = [{"targets": ["127.0.0.1:9"]}]
for name, port in services.items():
    if jobs.get(name) != (name, str(port)):
        problems.append(f"job {name} should keep the pods named {name} on port {port}, keeps {jobs.get(name)}")
compose_jobs = {j["job_name"] for j in yaml.safe_load(open(compose_config))["scrape_configs"]}
if set(jobs) != compose_jobs:
    problems.append(f"jobs {sorted(jobs)} are not deploy/observability's {sorted(compose_jobs)}")
yaml.safe_dump(config, open(out, "w"))
for p in problems:
    print("check-kubernetes: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
promtool check config "$work/prometheus.yml" >"$work/promtool.log" 2>&1 \
  || { cat "$work/promtool.log" >&2; fail "promtool rejects $root/observability/prometheus.yml"; }
echo "check-kubernetes: $root/observability/prometheus.yml scrapes StackKit's services as deploy/observability's jobs (promtool check config)"

echo "check-kubernetes: all passed $(took)"
