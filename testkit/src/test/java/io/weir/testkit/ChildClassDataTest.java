package io.weir.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildClassDataTest {

    @TempDir
    Path root;

    private String classpath() throws IOException {
        Path classes = Files.createDirectories(root.resolve("classes"));
        Path a = Files.writeString(root.resolve("a.jar"), "a");
        Path b = Files.writeString(root.resolve("b.jar"), "b");
        return String.join(File.pathSeparator, classes.toString(), a.toString(), b.toString());
    }

    @Test
    void withoutADirectoryTheChildStartsAsBefore() throws IOException {
        String classpath = classpath();
        ChildClassData.Launch launch = ChildClassData.launch(classpath, " ");
        assertThat(launch.classpath()).isEqualTo(classpath);
        assertThat(launch.jvmOptions()).isEmpty();
    }

    @Test
    void theJarsComeFirstAndTheFirstChildRecordsItsClassesTheNextOnesDoNot() throws IOException {
        String classpath = classpath();
        Path archives = root.resolve("cds");

        ChildClassData.Launch first = ChildClassData.launch(classpath, archives.toString());
        ChildClassData.Launch second = ChildClassData.launch(classpath, archives.toString());

        assertThat(first.classpath())
                .isEqualTo(String.join(
                        File.pathSeparator,
                        root.resolve("a.jar").toString(),
                        root.resolve("b.jar").toString(),
                        root.resolve("classes").toString()));
        assertThat(first.jvmOptions()).singleElement().asString().startsWith("-XX:DumpLoadedClassList=" + archives);
        assertThat(second.classpath()).isEqualTo(first.classpath());
        assertThat(second.jvmOptions()).isEmpty();
    }

    @Test
    void aChangedJarIsAnotherArchive() throws IOException {
        String classpath = classpath();
        Path archives = root.resolve("cds");
        ChildClassData.Launch before = ChildClassData.launch(classpath, archives.toString());
        Files.writeString(root.resolve("b.jar"), "b, rebuilt");
        ChildClassData.Launch after = ChildClassData.launch(classpath, archives.toString());

        // A new set of jars records afresh instead of waiting for an archive the JVM would refuse.
        assertThat(after.jvmOptions()).singleElement().asString().startsWith("-XX:DumpLoadedClassList=");
        assertThat(after.jvmOptions()).isNotEqualTo(before.jvmOptions());
    }
}
