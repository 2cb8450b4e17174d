package io.weir.deploy.chart;

import static io.weir.deploy.chart.WeirChart.chart;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The JVM and native memory values (jvm.*): the options the pod's JVM gets, MALLOC_ARENA_MAX, and
 * the check that the heap, RocksDB's memory and the native headroom fit in the memory limit.
 */
class JvmMemoryTest {

    private static Container weir(WeirChart chart) {
        return chart.render()
                .only(StatefulSet.class)
                .getSpec()
                .getTemplate()
                .getSpec()
                .getContainers()
                .get(0);
    }

    private static Optional<String> env(Container container, String name) {
        List<EnvVar> matching = container.getEnv().stream()
                .filter(e -> e.getName().equals(name))
                .toList();
        assertThat(matching).as("%s defined at most once", name).hasSizeLessThanOrEqualTo(1);
        return matching.stream().findFirst().map(EnvVar::getValue);
    }

    private static void failsWith(WeirChart chart, String... messageParts) {
        assertThatThrownBy(chart::template)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContainingAll(messageParts);
    }

    @Test
    void defaultsNameG1AndHalfTheLimitForTheHeapAndCapMallocArenas() {
        Container weir = weir(chart());

        // G1 by name: with the default 1536Mi limit the JVM would pick SerialGC by itself (< 1792 MiB).
        assertThat(env(weir, "JDK_JAVA_OPTIONS"))
                .contains("-XX:MaxRAMPercentage=50.0 -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError");
        assertThat(env(weir, "MALLOC_ARENA_MAX")).contains("2");
        assertThat(weir.getResources().getLimits().get("memory").toString()).isEqualTo("1536Mi");
        // JAVA_TOOL_OPTIONS is left to the user.
        assertThat(env(weir, "JAVA_TOOL_OPTIONS")).isEmpty();
    }

    @Test
    void theUsersChoicesAndExtraEnvAreKept() {
        Container weir = weir(chart().values("production.yaml"));

        assertThat(env(weir, "JDK_JAVA_OPTIONS"))
                .contains("-XX:MaxRAMPercentage=60.0 -XX:+UseZGC"
                        + " -XX:+ExitOnOutOfMemoryError -Xlog:gc*:stderr:time,level,tags -XX:+AlwaysPreTouch");
        assertThat(env(weir, "MALLOC_ARENA_MAX")).contains("4");
        assertThat(env(weir, "JAVA_TOOL_OPTIONS")).contains("-Dweir.log.level=DEBUG");
    }

    @Test
    void theJvmMayChooseItsCollectorAndGlibcItsArenas() {
        Container weir = weir(chart().set("jvm.gc", "").set("jvm.mallocArenaMax", 0));

        assertThat(env(weir, "JDK_JAVA_OPTIONS")).contains("-XX:MaxRAMPercentage=50.0 -XX:+ExitOnOutOfMemoryError");
        assertThat(env(weir, "MALLOC_ARENA_MAX")).isEmpty();
    }

    @Test
    void heapRocksDbAndHeadroomMustFitTheLimit() {
        // 768Mi heap + 512Mi RocksDB + 384Mi headroom = 1664Mi > 1536Mi.
        failsWith(
                chart().set("config.rocksdb\\.memory\\.bytes", 536870912),
                "resources.limits.memory (1536Mi = 1536Mi) is less than the heap (jvm.maxRAMPercentage 50% = 768Mi)"
                        + " + RocksDB (rocksdb.memory.bytes = 512Mi) + jvm.nativeHeadroom (384Mi) = 1664Mi",
                "raise resources.limits.memory, or lower jvm.maxRAMPercentage, config.rocksdb.memory.bytes or jvm.nativeHeadroom");
        failsWith(chart().set("jvm.maxRAMPercentage", 75), "jvm.maxRAMPercentage 75% = 1152Mi", "= 1792Mi");
        failsWith(chart().set("resources.limits.memory", "1Gi"), "resources.limits.memory (1Gi = 1024Mi)");
        failsWith(chart().set("jvm.nativeHeadroom", "1Gi"), "jvm.nativeHeadroom (1024Mi)");

        // Each of the remedies the message names renders.
        assertThat(weir(chart().set("config.rocksdb\\.memory\\.bytes", 536870912)
                                .set("resources.limits.memory", "2Gi"))
                        .getResources()
                        .getLimits()
                        .get("memory")
                        .toString())
                .isEqualTo("2Gi");
        assertThat(weir(chart().set("config.rocksdb\\.memory\\.bytes", 536870912)
                        .set("jvm.maxRAMPercentage", 40)))
                .isNotNull();
        assertThat(weir(chart().values("production.yaml"))).isNotNull(); // 2458Mi + 1024Mi + 512Mi <= 4Gi
        assertThat(weir(chart().set("resources.limits.memory", "1.5Gi"))).isNotNull();
    }

    @Test
    void withoutAMemoryLimitThereIsNothingToCheck() {
        Container weir =
                weir(chart().set("resources.limits", "null").set("config.rocksdb\\.memory\\.bytes", 4294967296L));

        assertThat(weir.getResources().getLimits()).isNullOrEmpty();
    }

    @Test
    void aLimitTheCheckCannotReadFailsNamingIt() {
        failsWith(
                chart().set("resources.limits.memory", "1500m"),
                "resources.limits.memory (1500m) is not a memory quantity Weir's chart can check");
    }

    @Test
    void jvmOptionsAndArenasComeOnlyFromTheJvmValues() {
        failsWith(
                chart().set("extraEnv[0].name", "JDK_JAVA_OPTIONS").set("extraEnv[0].value", "-Xmx1g"),
                "extraEnv JDK_JAVA_OPTIONS: the chart sets JDK_JAVA_OPTIONS from jvm.maxRAMPercentage, jvm.gc and"
                        + " jvm.extraOptions (JAVA_TOOL_OPTIONS is yours to set)");
        failsWith(
                chart().set("extraEnv[0].name", "MALLOC_ARENA_MAX").set("extraEnv[0].value", "4"),
                "extraEnv MALLOC_ARENA_MAX: the chart sets MALLOC_ARENA_MAX from jvm.mallocArenaMax");
        failsWith(
                chart().set("jvm.extraOptions[0]", "-Xmx2g"),
                "jvm.extraOptions -Xmx2g: size the heap with jvm.maxRAMPercentage, which the memory check counts");
        failsWith(
                chart().set("jvm.extraOptions[0]", "-XX:MaxRAMPercentage=80"),
                "size the heap with jvm.maxRAMPercentage");
        failsWith(
                chart().set("jvm.extraOptions[0]", "-XX:+UseSerialGC"),
                "jvm.extraOptions -XX:+UseSerialGC: choose the collector with jvm.gc (G1, Parallel, Serial, Z)");
    }

    @Test
    void badJvmValuesFailTheSchema() {
        failsWith(chart().set("jvm.maxRAMPercentage", 95), "jvm.maxRAMPercentage: Must be less than or equal to 90");
        failsWith(chart().set("jvm.gc", "CMS"), "jvm.gc: jvm.gc must be one of the following");
        failsWith(chart().set("jvm.nativeHeadroom", "lots"), "jvm.nativeHeadroom: Does not match pattern");
        failsWith(chart().set("jvm.mallocArenaMax", -1), "jvm.mallocArenaMax: Must be greater than or equal to 0");
        failsWith(chart().set("jvm.extraOptions[0]", "Xlog:gc"), "jvm.extraOptions.0: Does not match pattern");
        failsWith(chart().set("jvm.heap", 50), "jvm: Additional property heap is not allowed");
    }
}
