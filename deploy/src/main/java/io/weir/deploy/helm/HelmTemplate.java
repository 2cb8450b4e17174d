package io.weir.deploy.helm;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code helm template} through helm-java (Helm's own engine, no cluster), with the chart's hooks
 * included as the helm command prints them. helm-java's template leaves hooks ({@code helm test}
 * pods, upgrade Jobs) out of what it returns; in a copy of the chart whose hook annotation has
 * another name they render as ordinary manifests, and the annotation gets its name back in the
 * output. The copy is made once per chart directory and JVM, from the chart as it is then.
 */
public final class HelmTemplate {

    private static final String HOOK = "helm.sh/hook";
    private static final String HOOK_STAND_IN = "hook.test.weir.io/helm-sh-hook";
    private static final Map<Path, Path> COPIES = new HashMap<>();

    private HelmTemplate() {}

    /** The rendered YAML of {@code chart} for one release, or an IllegalStateException with Helm's message. */
    public static String render(
            Path chart, String release, String namespace, List<Path> valuesFiles, Map<String, Object> sets) {
        TemplateCommand command = new Helm(withHooksAsManifests(chart))
                .template()
                .withName(release)
                .withNamespace(namespace);
        valuesFiles.forEach(command::withValuesFile);
        sets.forEach(command::set);
        return command.call().replace(HOOK_STAND_IN, HOOK);
    }

    private static synchronized Path withHooksAsManifests(Path chart) {
        Path source = chart.toAbsolutePath().normalize();
        Path copy = COPIES.get(source);
        if (copy != null) {
            return copy;
        }
        try {
            copy = Files.createTempDirectory("weir-chart-");
            try (var files = Files.walk(source)) {
                for (Path file : files.toList()) {
                    Path target = copy.resolve(source.relativize(file).toString());
                    if (Files.isDirectory(file)) {
                        Files.createDirectories(target);
                    } else if (file.startsWith(source.resolve("templates"))) {
                        Files.writeString(target, Files.readString(file).replace(HOOK, HOOK_STAND_IN));
                    } else {
                        Files.copy(file, target);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        COPIES.put(source, copy);
        return copy;
    }
}
