/* Debian's libopenmpi-dev ships ompi/op/op.h but not this header, which
 * op.h includes for Fortran user ops. Open MPI's own version reduces to
 * these casts when MPI_Fint is an int, as on Debian's amd64 build. */
#ifndef HXB_COMPAT_FINT_2_INT_H
#define HXB_COMPAT_FINT_2_INT_H
#define OMPI_INT_2_FINT(a) ((MPI_Fint)(a))
#define OMPI_FINT_2_INT(a) ((int)(a))
#define OMPI_LOGICAL_2_INT(a) ((int)(a))
#define OMPI_INT_2_LOGICAL(a) ((a) != 0)
#endif
