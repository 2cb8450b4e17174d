package io.weir.deploy.chart;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** See {@link WeirChart#renderWithHooks()}. */
final class HookRendering {

  /** Helm decides a resource is a hook by this annotation key alone; weights and policies stay as they are. */
  private static final String HOOK = "helm.sh/hook";
  private static final String RENAMED = "weir.test/rendered-hook";

  private HookRendering() {}

  static List<HasMetadata> render(WeirChart chart) {
    Path copy = copyWithHooksRenamed(WeirChart.directory());
    try {
      List<HasMetadata> resources = StrictManifests.parse(chart.template(copy));
      for (HasMetadata r : resources) {
        Map<String, String> annotations = r.getMetadata().getAnnotations();
        if (annotations != null && annotations.containsKey(RENAMED)) {
          annotations.put(HOOK, annotations.remove(RENAMED));
        }
      }
      return resources;
    } finally {
      delete(copy);
    }
  }

  private static Path copyWithHooksRenamed(Path chart) {
    try {
      Path copy = Files.createTempDirectory("weir-chart-hooks-").resolve("weir");
      try (Stream<Path> files = Files.walk(chart)) {
        for (Path f : files.toList()) {
          Path target = copy.resolve(chart.relativize(f).toString());
          if (Files.isDirectory(f)) {
            Files.createDirectories(target);
          } else if (f.getParent().getFileName().toString().equals("templates")) {
            Files.writeString(target, Files.readString(f).replace(HOOK + ":", RENAMED + ":"));
          } else {
            Files.copy(f, target);
          }
        }
      }
      return copy;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path copy) {
    try (Stream<Path> files = Files.walk(copy.getParent())) {
      for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(f);
      }
    } catch (IOException e) {
      // a temporary copy left behind is harmless
    }
  }
}
