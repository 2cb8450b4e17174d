package io.weir.docs.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the checks read from Markdown: anchors as GitHub makes them, fences, markers and links. */
class PageTest {

    @Test
    void anchorsFollowGitHubsRules() {
        assertThat(Page.slug("Replay, savepoints and bounded runs")).isEqualTo("replay-savepoints-and-bounded-runs");
        assertThat(Page.slug("Health: `/health/live` and `/health/ready`"))
                .isEqualTo("health-healthlive-and-healthready");
        assertThat(Page.slug("Bounded runs (\"batch is a bounded stream\")"))
                .isEqualTo("bounded-runs-batch-is-a-bounded-stream");
        assertThat(Page.slug("`weir topics plan|create --app ID`")).isEqualTo("weir-topics-plancreate---app-id");
        assertThat(Page.slug("See [the chart](../helm/weir/README.md) and max_poll"))
                .isEqualTo("see-the-chart-and-max_poll");
    }

    @Test
    void repeatedHeadingsGetNumberedAnchorsAndHeadingsInCodeAreNone() {
        Page page =
                new Page(Path.of("p.md"), List.of("# Title", "## Limits", "```sh", "# a comment", "```", "## Limits"));
        assertThat(page.anchors()).containsExactly("title", "limits", "limits-1");
    }

    @Test
    void fencesCarryTheirLanguageAndMarker() {
        Page page = new Page(
                Path.of("p.md"),
                List.of("text", "<!-- snippet: docs/A.java#one -->", "```java", "int a;", "```", "```sh", "ls", "```"));
        assertThat(page.fences()).hasSize(2);
        assertThat(page.fences().get(0).snippet()).contains(new Page.SnippetRef("docs/A.java", "one"));
        assertThat(page.fences().get(0).body(page.lines())).containsExactly("int a;");
        assertThat(page.fences().get(1).language()).isEqualTo("sh");
        assertThat(page.fences().get(1).snippet()).isEmpty();
    }

    @Test
    void linksInCodeAreNotLinks() {
        Page page = new Page(
                Path.of("p.md"), List.of("See [a](a.md#x) and `[b](b.md)`.", "```", "[c](c.md)", "```", "[ref]: d.md"));
        assertThat(page.links()).extracting(Page.Link::target).containsExactly("a.md#x", "d.md");
    }

    @Test
    void regionsLoseTheirTagLinesAndCommonIndentation() {
        assertThat(Regions.trim(List.of("", "    a(", "        b);", "", "    c;", "")))
                .containsExactly("a(", "    b);", "", "c;");
    }
}
