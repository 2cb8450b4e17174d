package io.weir.internal.state;

import io.weir.errors.ConfigException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.UUID;

/**
 * The directory an instance owns under {@code state.dir}, locked while it runs, and the stable
 * instance id that names its consumers' static membership and its transactional ids.
 *
 * <p>With {@code instance.id} set the directory is {@code <state.dir>/<app>/<instance.id>};
 * otherwise it is {@code <state.dir>/<app>} and a generated id is kept in it, so the same
 * process restarted on the same disk is the same instance.
 */
public final class InstanceDirectory implements AutoCloseable {

    private final Path dir;
    private final String instanceId;
    private final FileChannel channel;
    private final FileLock lock;

    private InstanceDirectory(Path dir, String instanceId, FileChannel channel, FileLock lock) {
        this.dir = dir;
        this.instanceId = instanceId;
        this.channel = channel;
        this.lock = lock;
    }

    public static InstanceDirectory open(Path stateDir, String applicationId, Optional<String> configuredId) {
        Path dir = configuredId
                .map(id -> stateDir.resolve(applicationId).resolve(id))
                .orElse(stateDir.resolve(applicationId));
        FileChannel channel = null;
        try {
            Files.createDirectories(dir);
            channel = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                throw new ConfigException(
                        "state.dir",
                        dir + " is in use by another running instance; give each"
                                + " instance its own state.dir or instance.id");
            }
            String id = configuredId.isPresent() ? configuredId.get() : readOrCreateId(dir);
            return new InstanceDirectory(dir, id, channel, lock);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new ConfigException("state.dir", "cannot use " + dir + ": " + e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    public Path dir() {
        return dir;
    }

    public String instanceId() {
        return instanceId;
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // the lock goes with the channel anyway
        }
        closeQuietly(channel);
    }

    private static String readOrCreateId(Path dir) throws IOException {
        Path file = dir.resolve("instance.id");
        if (Files.exists(file)) {
            String id = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (!id.isEmpty()) {
                return id;
            }
        }
        String id = UUID.randomUUID().toString().substring(0, 8);
        Path tmp = dir.resolve("instance.id.tmp");
        Files.writeString(tmp, id, StandardCharsets.UTF_8);
        Files.move(
                tmp,
                file,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        return id;
    }

    private static void closeQuietly(FileChannel c) {
        if (c != null) {
            try {
                c.close();
            } catch (IOException ignored) {
                // nothing to do
            }
        }
    }
}
