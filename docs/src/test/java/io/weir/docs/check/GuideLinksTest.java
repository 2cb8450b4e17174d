package io.weir.docs.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every relative link of README.md and docs/*.md leads to a file and heading that exist. */
class GuideLinksTest {

    private final Path root = Guide.root();

    @Test
    void everyRelativeLinkLeadsToAFileAndHeadingThatExist() {
        Links links = new Links(root);
        List<String> problems = new ArrayList<>();
        for (Path page : Guide.pages(root)) {
            problems.addAll(links.check(Page.read(page)));
        }
        assertThat(problems).as("broken links in README.md and docs/*.md").isEmpty();
    }

    @Test
    void theReadmeMapsEveryDocsPage() {
        Page readme = Page.read(root.resolve("README.md"));
        List<String> linked =
                readme.links().stream().map(l -> l.target().split("#", 2)[0]).toList();
        List<String> pages = Guide.pages(root).stream()
                .skip(1)
                .map(p -> Guide.relative(root, p))
                .toList();
        assertThat(linked).as("README.md links every page of docs/").containsAll(pages);
    }
}
