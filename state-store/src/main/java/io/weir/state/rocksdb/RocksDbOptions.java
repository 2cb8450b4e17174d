package io.weir.state.rocksdb;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.IndexType;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.Options;
import org.rocksdb.WriteOptions;

/**
 * The native option objects of one {@link RocksDbStore}, tuned for a write-heavy stream store whose
 * durability comes from its Kafka changelog, and freed together when the store closes.
 */
final class RocksDbOptions implements AutoCloseable {

    private static final long DATA_WRITE_BUFFER = 16L << 20;
    // The metadata family holds one key rewritten at every commit: a small arena keeps its
    // memtable from reserving megabytes per store, a few MiB of buffer lets it flush only
    // together with the data (atomic flush flushes both whenever either fills).
    private static final long METADATA_WRITE_BUFFER = 4L << 20;
    private static final long METADATA_ARENA_BLOCK = 64L << 10;
    /** The memtable's bloom filter, as a share of its write buffer (RocksDB's suggested 0.1 at most). */
    private static final double MEMTABLE_BLOOM_RATIO = 0.05;

    private final BloomFilter bloomFilter = new BloomFilter(10);
    private final DBOptions db = new DBOptions();
    private final ColumnFamilyOptions data = new ColumnFamilyOptions();
    private final ColumnFamilyOptions metadata = new ColumnFamilyOptions();
    private final WriteOptions write = new WriteOptions();
    private final FlushOptions flush = new FlushOptions();
    private final FlushOptions flushAsync = new FlushOptions();

    RocksDbOptions(RocksDbResources resources) {
        db.setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                // No WAL (see write options), so both column families must flush as one: after a
                // crash the data and the changelog offset stored beside it roll back together.
                .setAtomicFlush(true)
                .setWriteBufferManager(resources.writeBufferManager())
                // Keep table files open: no re-open and re-read of index blocks on a cold key;
                // index and filter blocks are charged to the shared cache either way.
                .setMaxOpenFiles(-1)
                .setMaxBackgroundJobs(2)
                .setBytesPerSync(1L << 20)
                .setInfoLogLevel(InfoLogLevel.WARN_LEVEL)
                .setKeepLogFileNum(2)
                .setMaxLogFileSize(1L << 20)
                .setStatsDumpPeriodSec(0);

        data.setTableFormatConfig(tableConfig(resources))
                .setWriteBufferSize(DATA_WRITE_BUFFER)
                .setMaxWriteBufferNumber(3)
                .setCompactionStyle(CompactionStyle.LEVEL)
                .setLevelCompactionDynamicLevelBytes(true)
                .setCompressionType(CompressionType.LZ4_COMPRESSION)
                // Stream stores look up many absent keys (first event of a key): keep the filter
                // on the last level too.
                .setOptimizeFiltersForHits(false)
                // A bloom filter over the memtable's whole keys: most reads of a large store are
                // for keys the memtable does not hold, and without it each walks the skip list
                // (a tenth of a 1M-key count's CPU). Its bits come out of the memtable's arena.
                .setMemtablePrefixBloomSizeRatio(MEMTABLE_BLOOM_RATIO)
                .setMemtableWholeKeyFiltering(true);

        metadata.setTableFormatConfig(tableConfig(resources))
                .setWriteBufferSize(METADATA_WRITE_BUFFER)
                .setArenaBlockSize(METADATA_ARENA_BLOCK)
                .setCompressionType(CompressionType.NO_COMPRESSION);

        // The changelog is the log: a WAL would write every change a second time.
        write.setDisableWAL(true);
        flush.setWaitForFlush(true);
        flushAsync.setWaitForFlush(false);
    }

    private BlockBasedTableConfig tableConfig(RocksDbResources resources) {
        return new BlockBasedTableConfig()
                .setBlockCache(resources.cache())
                .setBlockSize(4 << 10)
                .setFilterPolicy(bloomFilter)
                // Index and filters live in the shared cache (bounded), at high priority, so data
                // blocks are evicted first. One index and one filter block per table file, not
                // partitioned: a cold key's read then searches three blocks, not five, and a count
                // over 1M keys ran 8% faster (benchmarks/README.md, count-1m). The price: a file's
                // whole index and filter (1 to 3 MB for a 64 MB file) are read at its first use.
                .setIndexType(IndexType.kBinarySearch)
                .setCacheIndexAndFilterBlocks(true)
                .setCacheIndexAndFilterBlocksWithHighPriority(true);
    }

    DBOptions db() {
        return db;
    }

    ColumnFamilyOptions data() {
        return data;
    }

    ColumnFamilyOptions metadata() {
        return metadata;
    }

    WriteOptions write() {
        return write;
    }

    /**
     * Options for an {@link org.rocksdb.SstFileWriter} of the data family: its table format (block
     * size, filters, index) and compression, so ingested files read like flushed ones. The caller closes them.
     */
    Options sstFiles() {
        return new Options(db, data);
    }

    FlushOptions flush() {
        return flush;
    }

    FlushOptions flushAsync() {
        return flushAsync;
    }

    @Override
    public void close() {
        flush.close();
        flushAsync.close();
        write.close();
        metadata.close();
        data.close();
        db.close();
        bloomFilter.close();
    }
}
