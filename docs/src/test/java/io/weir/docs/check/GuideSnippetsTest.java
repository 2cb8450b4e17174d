package io.weir.docs.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every Java block of the guide is a region of a compiled source, as it is there today. */
class GuideSnippetsTest {

    private final Path root = Guide.root();

    @Test
    void everyJavaBlockIsItsMarkedSourceRegion() {
        List<String> problems = new ArrayList<>();
        for (Path page : Guide.pages(root)) {
            problems.addAll(Snippets.check(root, Page.read(page)));
        }
        assertThat(problems)
                .as("code blocks of README.md and docs/*.md; rewrite marked blocks with: " + Guide.UPDATE_COMMAND)
                .isEmpty();
    }

    @Test
    void theGuideHasSnippets() {
        long marked = Guide.pages(root).stream()
                .map(Page::read)
                .flatMap(p -> p.fences().stream())
                .filter(f -> f.snippet().isPresent())
                .count();
        assertThat(marked).as("marked code blocks in the guide").isGreaterThan(10);
    }
}
