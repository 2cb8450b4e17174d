package io.weir.docs.check;

import io.weir.docs.check.Page.Fence;
import io.weir.docs.check.Page.SnippetRef;
import io.weir.docs.check.Regions.RegionException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The code blocks of the guide that come from compiled sources. A block is marked by an HTML
 * comment on the line right before its opening fence:
 *
 * <pre>{@code
 * <!-- snippet: docs/src/test/java/io/weir/docs/dsl/DslTest.java#split -->
 * ```java
 * ...the region "split" of that file...
 * ```
 * }</pre>
 *
 * <p>Every {@code java} block must be marked; a block of another language may be. {@link #check}
 * lists what is wrong; {@link #update} rewrites every marked block from its region.
 */
final class Snippets {

    /** The languages whose blocks must come from a compiled source. */
    static final Set<String> MARKED_LANGUAGES = Set.of("java");

    private Snippets() {}

    /** One problem per line: a java block without marker, a marker without block or region, a stale block. */
    static List<String> check(Path root, Page page) {
        List<String> problems = new ArrayList<>();
        String name = Guide.relative(root, page.path());
        Set<Integer> usedMarkers = new TreeSet<>();
        for (Fence fence : page.fences()) {
            String where = name + ":" + (fence.open() + 1);
            if (fence.snippet().isEmpty()) {
                if (MARKED_LANGUAGES.contains(fence.language())) {
                    problems.add(where + ": a " + fence.language() + " block without a snippet marker: put"
                            + " <!-- snippet: FILE#REGION --> on the line before it, naming a tagged region of a"
                            + " compiled source (see docs/README.md, \"Writing the docs\")");
                }
                continue;
            }
            usedMarkers.add(fence.open() - 1);
            SnippetRef ref = fence.snippet().get();
            try {
                List<String> expected = indented(Regions.read(root.resolve(ref.file()), ref.region()), fence.indent());
                if (!fence.body(page.lines()).equals(expected)) {
                    problems.add(where + ": the block differs from its source " + ref
                            + firstDifference(fence.body(page.lines()), expected) + "; regenerate it with: "
                            + Guide.UPDATE_COMMAND);
                }
            } catch (RegionException e) {
                problems.add(where + ": snippet " + ref + ": " + e.getMessage());
            }
        }
        for (Map.Entry<Integer, SnippetRef> marker : page.markers().entrySet()) {
            if (!usedMarkers.contains(marker.getKey())) {
                problems.add(name + ":" + (marker.getKey() + 1) + ": snippet marker " + marker.getValue()
                        + " is not on the line right before a code fence");
            }
        }
        return problems;
    }

    /** Rewrites every marked block of {@code page} from its region; returns the blocks it could not. */
    static List<String> update(Path root, Page page) throws java.io.IOException {
        List<String> problems = new ArrayList<>();
        List<String> lines = new ArrayList<>(page.lines());
        List<Fence> fences = page.fences();
        // From the last block to the first, so that earlier line numbers stay valid.
        for (int i = fences.size() - 1; i >= 0; i--) {
            Fence fence = fences.get(i);
            if (fence.snippet().isEmpty()) {
                continue;
            }
            SnippetRef ref = fence.snippet().get();
            try {
                List<String> region = indented(Regions.read(root.resolve(ref.file()), ref.region()), fence.indent());
                lines.subList(fence.open() + 1, fence.close()).clear();
                lines.addAll(fence.open() + 1, region);
            } catch (RegionException e) {
                problems.add(Guide.relative(root, page.path()) + ":" + (fence.open() + 1) + ": snippet " + ref + ": "
                        + e.getMessage());
            }
        }
        if (!lines.equals(page.lines())) {
            Files.write(page.path(), lines);
        }
        return problems;
    }

    private static List<String> indented(List<String> region, String indent) {
        return region.stream().map(l -> l.isEmpty() ? l : indent + l).toList();
    }

    private static String firstDifference(List<String> actual, List<String> expected) {
        for (int i = 0; i < Math.min(actual.size(), expected.size()); i++) {
            if (!actual.get(i).equals(expected.get(i))) {
                return " (line " + (i + 1) + " of the block is \""
                        + actual.get(i).strip() + "\", the source has \""
                        + expected.get(i).strip() + "\")";
            }
        }
        return " (the block has " + actual.size() + " lines, the source " + expected.size() + ")";
    }
}
