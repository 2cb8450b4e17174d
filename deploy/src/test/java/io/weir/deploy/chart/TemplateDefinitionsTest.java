package io.weir.deploy.chart;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.deploy.kubernetes.helm.Release;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every named template is defined once: Helm keeps one of two definitions of a name without a word,
 * so a helper defined again in another file silently changes every template that includes it.
 */
class TemplateDefinitionsTest {

    private static final Pattern DEFINE = Pattern.compile("define \"([^\"]+)\"");

    @Test
    void noNamedTemplateIsDefinedTwice() throws IOException {
        List<String> names = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Release.chartDirectory().resolve("templates"))) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Matcher m = DEFINE.matcher(Files.readString(file));
                while (m.find()) {
                    names.add(m.group(1) + " (" + file.getFileName() + ")");
                }
            }
        }
        assertThat(names).isNotEmpty();
        assertThat(names.stream()
                        .map(n -> n.substring(0, n.indexOf(' ')))
                        .distinct()
                        .count())
                .as("named templates defined more than once: %s", names)
                .isEqualTo(names.size());
    }
}
