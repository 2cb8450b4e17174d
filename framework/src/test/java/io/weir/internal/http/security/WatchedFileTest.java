package io.weir.internal.http.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.weir.errors.ConfigException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

class WatchedFileTest {

    @TempDir
    Path dir;

    private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(WatchedFile.class);

    @BeforeEach
    void capture() {
        logs.start();
        logger.addAppender(logs);
    }

    @AfterEach
    void release() {
        logger.detachAppender(logs);
    }

    private Path write(String content) throws IOException {
        return Files.writeString(dir.resolve("tokens"), content, StandardCharsets.UTF_8);
    }

    private WatchedFile<List<String>> tokens(Path file) {
        return new WatchedFile<>("http.auth.token.file", file, BearerTokens::parseFile);
    }

    @Test
    void aMissingOrBadFileFailsTheStartNamingTheSetting() throws IOException {
        assertThatThrownBy(() -> tokens(dir.resolve("absent")))
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.auth.token.file"))
                .hasMessageContaining("absent");
        Path bad = write("has a space-secret\n");
        assertThatThrownBy(() -> tokens(bad))
                .isInstanceOfSatisfying(
                        ConfigException.class, e -> assertThat(e.setting()).isEqualTo("http.auth.token.file"))
                .hasMessageContaining("line 1")
                .hasMessageNotContaining("space-secret");
        Path empty = write("\n\n");
        assertThatThrownBy(() -> tokens(empty))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("no token");
    }

    @Test
    void aChangedFileIsReadAgainAndAnUnchangedOneIsNot() throws IOException {
        WatchedFile<List<String>> f = tokens(write("first\nsecond\n"));
        assertThat(f.current()).containsExactly("first", "second");
        assertThat(f.refresh()).isFalse();
        write("third\n");
        assertThat(f.refresh()).isTrue();
        assertThat(f.current()).containsExactly("third");
    }

    @Test
    void aBrokenNewVersionKeepsTheOldValueAndWarnsOnceNamingTheSetting() throws IOException {
        WatchedFile<List<String>> f = tokens(write("good-token\n"));
        write("bad token with secret-part\n");
        assertThat(f.refresh()).isFalse();
        assertThat(f.refresh()).isFalse();
        assertThat(f.current()).containsExactly("good-token");
        List<ILoggingEvent> warnings =
                logs.list.stream().filter(e -> e.getLevel() == Level.WARN).toList();
        assertThat(warnings)
                .singleElement()
                .satisfies(e -> assertThat(e.getFormattedMessage())
                        .contains("http.auth.token.file", "keeping the previous")
                        .doesNotContain("secret-part"));

        write("fixed-token\n");
        assertThat(f.refresh()).isTrue();
        assertThat(f.current()).containsExactly("fixed-token");
    }

    @Test
    void aFileBrieflyMissingDuringASwapKeepsTheValueSilently() throws IOException {
        Path file = write("token\n");
        WatchedFile<List<String>> f = tokens(file);
        Files.delete(file);
        assertThat(f.refresh()).isFalse();
        assertThat(f.current()).containsExactly("token");
        assertThat(logs.list).noneMatch(e -> e.getLevel() == Level.WARN);
    }
}
