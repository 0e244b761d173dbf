<?php

declare(strict_types=1);

namespace Baas\Runtime\Notification;

/**
 * Processed notifications in a file that survives restarts (the default store): one line per id,
 * `<recordedAtMs> <notificationType> <requestId>`, each part percent-encoded (`rawurlencode`)
 * so any id (spaces, CR, LF, U+2028, U+0085, ...) is kept exactly. The file is created 0600,
 * appended under an exclusive lock and flushed to disk (`fsync`) before {@see record()} returns,
 * and read again when another process (another PHP-FPM worker) appended to it. Ids recorded more
 * than the horizon ago are dropped when the store is opened.
 */
final class FileProcessedStore implements ProcessedStore
{
    /**
     * The default horizon: 30 days, far longer than the service's re-delivery (up to 5 attempts)
     * and than a receiver's outage is allowed to last.
     */
    public const DEFAULT_HORIZON = 30 * 24 * 60 * 60;

    /** @var array<string, int> recordedAt by `type requestId` (encoded) */
    private array $seen = [];

    /** How many bytes of the file have been read. */
    private int $offset = 0;

    private readonly ?int $fixedNow;

    /**
     * Opens (or creates) the store.
     *
     * @param string $path the file
     * @param int $horizon seconds an id is kept after it was recorded
     * @param int|null $nowMillis the time to use as now, in epoch milliseconds (tests), or null
     *     for the clock
     * @throws \RuntimeException when the file cannot be created or read
     */
    public function __construct(public readonly string $path, public readonly int $horizon = self::DEFAULT_HORIZON, ?int $nowMillis = null)
    {
        $this->fixedNow = $nowMillis;
        $dir = dirname($path);
        if (!is_dir($dir) && !@mkdir($dir, 0700, true) && !is_dir($dir)) {
            throw new \RuntimeException('cannot create the folder of ' . $path);
        }
        $this->withLock(LOCK_EX, function ($file): void {
            $this->readFrom($file);
            $expired = 0;
            foreach ($this->seen as $key => $at) {
                if ($this->now() - $at > $this->horizon * 1000) {
                    unset($this->seen[$key]);
                    $expired++;
                }
            }
            if ($expired > 0) {
                $text = '';
                foreach ($this->seen as $key => $at) {
                    $text .= $at . ' ' . $key . "\n";
                }
                ftruncate($file, 0);
                rewind($file);
                $this->put($file, $text);
                $this->offset = strlen($text);
            }
        });
    }

    /**
     * Whether the notification was recorded within the horizon (by this process or another).
     *
     * @param DeliveryId $id the notification
     * @return bool whether it was processed
     */
    public function isProcessed(DeliveryId $id): bool
    {
        clearstatcache(true, $this->path);
        if (@filesize($this->path) !== $this->offset) {
            $this->withLock(LOCK_SH, function ($file): void {
                $this->readFrom($file);
            });
        }
        $at = $this->seen[self::key($id)] ?? null;
        return $at !== null && $this->now() - $at <= $this->horizon * 1000;
    }

    /**
     * Appends the id, on disk before it returns.
     *
     * @param DeliveryId $id the notification
     * @throws \RuntimeException when it cannot be written
     */
    public function record(DeliveryId $id): void
    {
        $key = self::key($id);
        $at = $this->now();
        $this->withLock(LOCK_EX, function ($file) use ($key, $at): void {
            $this->readFrom($file);
            fseek($file, 0, SEEK_END);
            $this->put($file, $at . ' ' . $key . "\n");
            $this->offset = (int) ftell($file);
        });
        $this->seen[$key] = $at;
    }

    private function now(): int
    {
        return $this->fixedNow ?? (int) floor(microtime(true) * 1000);
    }

    private static function key(DeliveryId $id): string
    {
        return rawurlencode($id->notificationType) . ' ' . rawurlencode($id->requestId);
    }

    /**
     * Reads the lines appended since the last read.
     *
     * @param resource $file
     */
    private function readFrom($file): void
    {
        $stat = fstat($file);
        $size = $stat === false ? 0 : $stat['size'];
        if ($size < $this->offset) {
            // Another process compacted the file: read it again from the start.
            $this->seen = [];
            $this->offset = 0;
        }
        fseek($file, $this->offset);
        $text = stream_get_contents($file);
        if ($text === false) {
            throw new \RuntimeException('cannot read ' . $this->path);
        }
        $end = strrpos($text, "\n");
        if ($end === false) {
            return; // nothing complete yet
        }
        foreach (explode("\n", substr($text, 0, $end)) as $line) {
            $parts = explode(' ', $line);
            if (count($parts) === 3 && preg_match('/^\d+$/D', $parts[0]) === 1) {
                $this->seen[$parts[1] . ' ' . $parts[2]] = (int) $parts[0];
            }
        }
        $this->offset += $end + 1;
    }

    /**
     * @param resource $file
     */
    private function put($file, string $text): void
    {
        if ($text !== '' && fwrite($file, $text) !== strlen($text)) {
            throw new \RuntimeException('cannot write ' . $this->path);
        }
        fflush($file);
        if (function_exists('fsync')) {
            fsync($file);
        }
    }

    /**
     * @param \Closure(resource): void $body
     */
    private function withLock(int $mode, \Closure $body): void
    {
        $old = umask(0077);
        $file = @fopen($this->path, 'c+');
        umask($old);
        if ($file === false) {
            throw new \RuntimeException('cannot open ' . $this->path . ': ' . (error_get_last()['message'] ?? 'unknown error'));
        }
        try {
            if (!flock($file, $mode)) {
                throw new \RuntimeException('cannot lock ' . $this->path);
            }
            $body($file);
        } finally {
            flock($file, LOCK_UN);
            fclose($file);
        }
    }
}
