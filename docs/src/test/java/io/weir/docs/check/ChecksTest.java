package io.weir.docs.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checks catch what they are for, on a small repository of their own. */
class ChecksTest {

    @TempDir
    Path root;

    @Test
    void snippetsReportUnmarkedStaleAndMissingBlocksAndUpdateRewritesTheStaleOne() throws IOException {
        write(
                "src/A.java",
                "class A {",
                "    void f() {",
                "        // tag::call[]",
                "        g(1);",
                "        // tag::inner[]",
                "        h();",
                "        // end::inner[]",
                "        // end::call[]",
                "    }",
                "}");
        Path page = write(
                "docs/p.md",
                "# P",
                "",
                "```java",
                "int unmarked;",
                "```",
                "",
                "<!-- snippet: src/A.java#call -->",
                "```java",
                "g(0);",
                "```",
                "",
                "<!-- snippet: src/A.java#gone -->",
                "```java",
                "```",
                "",
                "<!-- snippet: src/B.java#call -->",
                "```java",
                "```");

        List<String> problems = Snippets.check(root, Page.read(page));
        assertThat(problems).hasSize(4);
        assertThat(problems.get(0)).startsWith("docs/p.md:3: a java block without a snippet marker");
        assertThat(problems.get(1))
                .startsWith("docs/p.md:8: the block differs from its source src/A.java#call")
                .contains("\"g(0);\"", "\"g(1);\"", Guide.UPDATE_COMMAND);
        assertThat(problems.get(2)).contains("no region 'gone'");
        assertThat(problems.get(3)).contains("src/B.java");

        assertThat(Snippets.update(root, Page.read(page))).hasSize(2);
        assertThat(Page.read(page).lines().subList(7, 11)).containsExactly("```java", "g(1);", "h();", "```");
        assertThat(Snippets.check(root, Page.read(page))).hasSize(3);
    }

    @Test
    void aMarkerAwayFromAFenceIsReported() throws IOException {
        write("src/A.java", "// tag::x[]", "x();", "// end::x[]");
        Path page = write("p.md", "<!-- snippet: src/A.java#x -->", "", "```java", "x();", "```");
        assertThat(Snippets.check(root, Page.read(page)))
                .anySatisfy(p -> assertThat(p)
                        .contains("p.md:1: snippet marker src/A.java#x is not on the line right before a code fence"));
    }

    @Test
    void linksToMissingFilesAndHeadingsAreReported() throws IOException {
        write("docs/b.md", "# B", "## Some heading");
        write("code/values.yaml", "a: 1");
        Path page = write(
                "docs/a.md",
                "# A",
                "[ok](b.md#some-heading) [self](#a) [file](../code/values.yaml)",
                "[web](https://example.com/x#y) [gone](c.md) [bad](b.md#other) [up](../../x.md)",
                "`[code](nowhere.md)`");

        assertThat(new Links(root).check(Page.read(page)))
                .containsExactly(
                        "docs/a.md:3: link c.md: docs/c.md does not exist",
                        "docs/a.md:3: link b.md#other: no heading of docs/b.md has the anchor #other",
                        "docs/a.md:3: link ../../x.md: points outside the repository");
    }

    private Path write(String relative, String... lines) throws IOException {
        Path path = root.resolve(relative);
        Files.createDirectories(path.getParent());
        return Files.write(path, List.of(lines));
    }
}
