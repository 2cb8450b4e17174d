package io.weir.deploy.compose;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * The files of the repository these tests check, read strictly. YAML goes through SnakeYAML,
 * which resolves anchors and merge keys ({@code <<: *word-count}) as Compose does (Jackson's YAML
 * parser does not merge them) and rejects duplicate keys, then becomes a Jackson tree.
 */
public final class RepositoryFiles {

    private static final ObjectMapper JSON = new ObjectMapper();

    private RepositoryFiles() {}

    /** The repository root: the nearest directory upwards with docker-compose.yml and a pom.xml. */
    public static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("docker-compose.yml")) && Files.isRegularFile(d.resolve("pom.xml"))) {
                return d;
            }
        }
        throw new IllegalStateException("no docker-compose.yml above " + dir);
    }

    static Path file(String relative) {
        Path path = root().resolve(relative);
        assertThat(path).as(relative).isRegularFile();
        return path;
    }

    static JsonNode yaml(String relative) {
        LoaderOptions options = new LoaderOptions();
        options.setAllowDuplicateKeys(false);
        Object loaded = new Yaml(options).load(read(file(relative)));
        return JSON.valueToTree(loaded);
    }

    static JsonNode json(String relative) {
        try {
            return JSON.readTree(read(file(relative)));
        } catch (IOException e) {
            throw new UncheckedIOException(relative + " is not valid JSON", e);
        }
    }

    static String read(Path path) {
        try {
            return Files.readString(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
