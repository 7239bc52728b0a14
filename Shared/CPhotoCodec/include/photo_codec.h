#ifndef PHOTO_CODEC_H
#define PHOTO_CODEC_H

#include <stddef.h>

/// What `photo_codec_encode` answers.
typedef enum {
    PHOTO_CODEC_OK = 0,
    /// libvips found no loader for the bytes.
    PHOTO_CODEC_UNKNOWN_FORMAT = 1,
    /// A loader was found but the picture does not decode (truncated or corrupt).
    PHOTO_CODEC_UNDECODABLE = 2,
    /// The header announces more pixels than allowed (a decompression bomb).
    PHOTO_CODEC_TOO_MANY_PIXELS = 3,
    /// Encoding failed.
    PHOTO_CODEC_ENCODE_FAILED = 4,
    /// Stopped by its cancel flag (`photo_codec_cancel`), before or while it ran.
    PHOTO_CODEC_CANCELLED = 5,
} photo_codec_status;

/// A flag that stops one `photo_codec_encode` at its next stage or tile: set from any
/// thread with `photo_codec_cancel`.
typedef struct photo_codec_flag photo_codec_flag;

/// A new flag, not set; released with `photo_codec_flag_free`.
photo_codec_flag *photo_codec_flag_new(void);

/// Sets the flag: the encode it was given to stops soon and answers `PHOTO_CODEC_CANCELLED`.
void photo_codec_cancel(photo_codec_flag *flag);

/// Releases a flag no encode uses any more.
void photo_codec_flag_free(photo_codec_flag *flag);

/// One encoded picture; `data` is released with `photo_codec_free`.
typedef struct {
    void *data;
    size_t length;
    int width;
    int height;
} photo_codec_output;

/// Starts libvips once per process (safe to call from any thread, any number of times).
/// Returns 0 on success.
int photo_codec_start(void);

/// The libvips loader nickname for `input` (e.g. "jpegload_buffer"), or NULL. Static storage.
const char *photo_codec_loader(const void *input, size_t length);

/// Decodes `input` in full (refusing truncated data), turns it upright by its orientation
/// tag, converts it to sRGB, and encodes it with every piece of metadata stripped, as
/// `suffix` (".jpg", ".png" or ".webp"): once whole, then once for each long edge in
/// `long_edges` (never enlarged). `outputs` has room for `1 + edge_count` results.
/// `max_pixels` bounds width × height before anything is decoded. `cancel` (may be NULL)
/// stops the work when set.
photo_codec_status photo_codec_encode(const void *input, size_t length, const char *suffix, int quality,
                                      const int *long_edges, int edge_count, long long max_pixels,
                                      photo_codec_flag *cancel, photo_codec_output *outputs);

/// A made-up picture for tests, benchmarks and demo data: `width` × `height` in sRGB, in
/// the colour (`red`, `green`, `blue`), darker on the left than on the right, with Gaussian
/// noise of `noise` (0 for none, about 16 for a file as large as a phone photo), encoded as
/// `suffix` at `quality`. Returns 0 on success.
int photo_codec_sample(int width, int height, double noise, int red, int green, int blue, const char *suffix, int quality,
                       photo_codec_output *output);

/// Releases the bytes of an output.
void photo_codec_free(void *data);

/// The last libvips error message of this thread's call, for logs (may be empty). Copied into `buffer`.
void photo_codec_last_error(char *buffer, size_t capacity);

#endif
