# The Weir samples image: one image runs every sample application, as a one-shot demo
# (`docker run IMAGE word-count`) or as a long-running service (`docker run IMAGE serve word-count`),
# and holds the weir command-line tool (`docker run --rm --entrypoint weir IMAGE --help`).
#
# Build it from the repository root after Maven has packaged the samples:
#
#   mvn -B package -DskipTests
#   docker build -t my/weir-samples .
#
# Why a Dockerfile that copies what Maven built, and not a multi-stage build or Jib:
# - Maven resolves and caches the dependencies once, on the build machine, through whatever
#   repository and proxy it is configured with; a build stage running Maven inside the image build
#   would need Maven Central from inside the container, and would download everything again on
#   every cold build. Copying the jars keeps the image build offline and fast.
# - Any OCI tool builds it (docker, podman, buildah, kaniko), and a team reads and changes it in
#   one screen. Jib would add a second path that needs a registry or a Docker daemon to load into
#   (or writes a tar to load by hand), and hides the JVM flags, user and health check in plugin
#   configuration; it gives no layering this file does not already have.
#
# Layers, from the least to the most often changed, so that a code change rebuilds and pushes
# only the last ones: third-party libraries (target/lib, ~140 MB), the CLI's launcher, Weir's own
# modules (target/weir-lib), the CLI's jar, the samples' jar. sample-apps/pom.xml copies the
# libraries there at `package`. The CLI (module cli) needs no library of its own: its dependencies
# are a subset of the samples', which deploy/containers/build-image.sh checks before building.

# Any JRE 17 with bash (used by HEALTHCHECK): Temurin (Ubuntu) or a Debian with openjdk-17-jre-headless.
ARG BASE_IMAGE=eclipse-temurin:17-jre
FROM ${BASE_IMAGE}

ARG VERSION=0.1.0-SNAPSHOT
LABEL org.opencontainers.image.title="weir-samples" \
      org.opencontainers.image.description="Weir sample applications: stream processing on Kafka, exactly once" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.vendor="Weir" \
      io.weir.image.state-dir="/var/lib/weir" \
      io.weir.image.http-port="8080"

# State (RocksDB and the generated instance id) lives on a volume, writable by the non-root user.
# Group 0 and group-writable: platforms that run images under an arbitrary UID in group root
# (OpenShift) can write it too; Kubernetes' fsGroup takes care of mounted volumes.
RUN mkdir -p /var/lib/weir && chown 10001:0 /var/lib/weir && chmod 0770 /var/lib/weir

COPY sample-apps/target/lib/ /app/lib/
COPY cli/src/main/image/weir /opt/weir/bin/weir
COPY sample-apps/target/weir-lib/ /app/weir-lib/
COPY cli/target/weir-cli.jar /opt/weir/lib/weir-cli.jar
COPY sample-apps/target/weir-sample-apps.jar /app/weir-sample-apps.jar

# WEIR_STATE_DIR: Weir's state.dir, on the volume below. SAMPLE: what runs when the container gets no
# arguments (e.g. SAMPLE="serve word-count"). JDK_JAVA_OPTIONS: the image's JVM defaults, read by the
# java launcher; set JAVA_TOOL_OPTIONS to add options (-Dweir.log.level=DEBUG, -Xmx...), or
# JDK_JAVA_OPTIONS to replace these. The heap gets half of the container's memory limit, because
# RocksDB's memory (rocksdb.memory.bytes, 256 MiB by default), metaspace and thread stacks live
# outside it; an OutOfMemoryError exits the JVM so the orchestrator restarts a clean process
# instead of leaving a half-broken one running.
# UTF-8 output whatever the base's locale: a minimal base has none, and Java then prints '?' for
# every character outside ASCII (the samples print degrees Fahrenheit). PATH: the weir command.
ENV LANG=C.UTF-8 \
    PATH=/opt/weir/bin:$PATH \
    WEIR_STATE_DIR=/var/lib/weir \
    SAMPLE=temperature-alerts \
    JDK_JAVA_OPTIONS="-XX:MaxRAMPercentage=50.0 -XX:+ExitOnOutOfMemoryError"

VOLUME ["/var/lib/weir"]
# Weir's HTTP port (http.port): /health/live, /health/ready, /metrics, /topology, /info.
EXPOSE 8080

# A numeric UID needs no useradd (and no shell tools) in the base image, and lets Kubernetes'
# runAsNonRoot verify it without a passwd lookup.
USER 10001:0
WORKDIR /app

# SIGTERM is what docker stop, podman stop and Kubernetes send: Weir commits, closes its stores and
# keeps its group membership, so a restart with the same instance.id moves no task. The JVM is the
# container's PID 1 (exec-form ENTRYPOINT, no shell in between), so the signal reaches it; give the
# stop a grace period longer than shutdown.timeout.ms (30 s), e.g. `docker stop -t 45`.
STOPSIGNAL SIGTERM

# Liveness without curl or wget (not in JRE base images): bash's /dev/tcp sends one request to
# /health/live on WEIR_HTTP_PORT (8080 when unset or not a number) and wants status 200. Liveness,
# not readiness: a long restore or a Kafka outage must not mark the container unhealthy.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
    CMD ["bash", "-c", "p=${WEIR_HTTP_PORT:-8080}; [[ $p =~ ^[0-9]+$ ]] || p=8080; exec 3<>/dev/tcp/127.0.0.1/$p || exit 1; printf 'GET /health/live HTTP/1.1\\r\\nHost: localhost\\r\\nConnection: close\\r\\n\\r\\n' >&3; read -r -t 4 _ status _ <&3; [[ $status == 200 ]]"]

# java expands the classpath wildcards itself; no shell is involved.
ENTRYPOINT ["java", "-cp", "/app/weir-sample-apps.jar:/app/weir-lib/*:/app/lib/*", "io.weir.samples.Samples"]
CMD []
