package io.weir.deploy.kubernetes.helm;

import com.marcnuri.helm.Helm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code helm package helm/weir}: the chart as the {@code .tgz} Helm installs and repositories
 * serve, made by the build (deploy module, {@code package} phase) into {@code deploy/target/helm/},
 * beside the jars the image is built from; {@code deploy/containers/build-image.sh} says where it
 * is. Made with Helm's own code (helm-java), so it holds what {@code helm package} would, .helmignore
 * applied.
 */
public final class ChartPackage {

    private ChartPackage() {}

    /** Packages the chart into {@code args[0]} (created if missing); silent, as a build step should be. */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ChartPackage <destination directory>");
            System.exit(2);
        }
        Path destination = Files.createDirectories(Path.of(args[0]));
        Path chart = Release.chartDirectory();
        new Helm(chart).packageIt().withDestination(destination).call();
    }
}
